import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';

/** An address of this machine on a network, and the interface it belongs to (`wlan0`, `en0`, …). */
export interface LanAddress {
  address: string;
  interface: string;
}

// Interfaces of containers, virtual machines and VPNs: phones at the table are seldom on them.
const VIRTUAL = /^(docker|br-|veth|virbr|vmnet|vboxnet|tun|tap|utun|wg|zt|tailscale|lxc|lxd|cni|flannel)/i;

/** How likely a phone on the same Wi-Fi reaches this address: home and office networks first. */
function rank({ address, interface: name }: LanAddress): number {
  const [a = 0, b = 0] = address.split('.').map(Number);
  const homeRange = a === 192 && b === 168 ? 0 : a === 10 ? 1 : a === 172 && b >= 16 && b <= 31 ? 2 : 3;
  return (VIRTUAL.test(name) ? 10 : 0) + homeRange;
}

/**
 * This machine's IPv4 addresses that other devices can reach, the likeliest first: every interface but
 * the loopback, without link-local addresses (169.254.x.x, which a router never hands out).
 */
export function lanAddresses(
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): LanAddress[] {
  const found: LanAddress[] = [];
  for (const [name, infos] of Object.entries(interfaces)) {
    for (const info of infos ?? []) {
      if (info.family !== 'IPv4' || info.internal || info.address.startsWith('169.254.')) continue;
      found.push({ address: info.address, interface: name });
    }
  }
  return found.sort((x, y) => rank(x) - rank(y));
}

/** Whether a URL's host is this machine's loopback (a page opened there makes links nobody else can use). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || host.startsWith('127.') || host.endsWith('.localhost');
}

/**
 * Where share links point. A configured public URL always wins (a hosted server behind a proxy); else the
 * origin the page was opened at, unless that is this machine's loopback and the server also listens on the
 * local network: then the LAN address, which the players' phones can reach.
 */
export function linkOrigin(
  requestOrigin: string,
  { publicUrl, lanOrigin }: { publicUrl?: string | undefined; lanOrigin?: string | undefined },
): string {
  if (publicUrl) return publicUrl;
  if (lanOrigin && isLoopbackHost(new URL(requestOrigin).hostname)) return lanOrigin;
  return requestOrigin;
}

/**
 * A public URL as given by the operator, reduced to its origin (`https://rk.example.org`), or a sentence
 * saying what is wrong with it.
 */
export function parsePublicUrl(text: string): { origin: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: `--public-url must be a full address such as https://rk.example.org, not "${text}".` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { error: `--public-url must start with http:// or https://, not "${url.protocol}//".` };
  }
  if (url.pathname !== '/' || url.search || url.hash) {
    return {
      error: `--public-url is the address the server is reached at, without a path (the app lives at its root): ${url.origin}, not "${text}".`,
    };
  }
  return { origin: url.origin };
}
