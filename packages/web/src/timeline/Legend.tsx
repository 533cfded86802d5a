import { memo } from 'react';
import { svgElement } from './svg-react.js';
import { LEGEND } from './timeline-svg.js';

/**
 * The timeline's legend on the page: a list under the picture that wraps at the panel's width, so it is
 * whole at any size (in the picture it was cut at a narrow picture's right end, and scrolled away with it
 * on a phone). The exported file draws the same entries in the picture (`legendAt`).
 */
export const TimelineLegend = memo(function TimelineLegend() {
  return (
    <ul className="timeline-legend" aria-label="Legend">
      {LEGEND.map((e) => (
        <li key={e.label}>
          <svg className="swatch" viewBox="0 0 14 12" width="14" height="12" aria-hidden="true">
            {svgElement(e.swatch)}
          </svg>
          {e.label}
        </li>
      ))}
    </ul>
  );
});
