/** Small inline icons for the playback buttons (no icon font: projectors' browsers may lack the glyphs). */
const box = { width: 16, height: 16, viewBox: '0 0 16 16', 'aria-hidden': true, focusable: false } as const;

export const RewindIcon = () => (
  <svg {...box}>
    <rect x="2" y="2" width="2.5" height="12" fill="currentColor" />
    <path d="M14 2 L5.5 8 L14 14 Z" fill="currentColor" />
  </svg>
);
export const BackIcon = () => (
  <svg {...box}>
    <path d="M12 2 L3.5 8 L12 14 Z" fill="currentColor" />
  </svg>
);
export const ForwardIcon = () => (
  <svg {...box}>
    <path d="M4 2 L12.5 8 L4 14 Z" fill="currentColor" />
  </svg>
);
export const PlayIcon = ForwardIcon;
export const PauseIcon = () => (
  <svg {...box}>
    <rect x="3" y="2" width="3.5" height="12" fill="currentColor" />
    <rect x="9.5" y="2" width="3.5" height="12" fill="currentColor" />
  </svg>
);
