import { QRCodeSVG } from 'qrcode.react';

/**
 * A share link as a QR code, so that a player at the table points a phone's camera at the GM's screen
 * and is in. Dark modules on a white square with the four-module quiet zone the standard asks for: phone cameras read it on any theme.
 */
export function QrCode({ url, label }: { url: string; label: string }) {
  return (
    <QRCodeSVG
      value={url}
      size={148}
      level="M"
      marginSize={4}
      bgColor="#ffffff"
      fgColor="#000000"
      title={label}
      role="img"
      aria-label={label}
      data-qr={url}
      style={{ display: 'block', margin: '0.3rem 0 0.6rem' }}
    />
  );
}
