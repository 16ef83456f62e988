/** Small line icons drawn in currentColor, so they follow the theme and the text beside them. */
const paths = {
  plus: 'M8 3v10M3 8h10',
  pencil: 'M3 13l1-3.5L10.5 3 13 5.5 6.5 12zM9.5 4l2.5 2.5',
  trash: 'M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.5h5.8l.6-8.5',
  gear: 'M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5zM8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4',
  folder: 'M1.5 4v8.5h13V5.5H7.5L6 4z',
  chevronRight: 'M6 3.5L10.5 8 6 12.5',
  chevronDown: 'M3.5 6L8 10.5 12.5 6',
  stop: 'M4 4h8v8H4z',
  send: 'M2.5 8h10M8.5 4l4 4-4 4',
  inbox: 'M1.5 9.5l2-6h9l2 6v4h-13zM1.5 9.5h4l1 1.5h3l1-1.5h4',
  shield: 'M8 1.5l5.5 2v4c0 3.5-2.5 5.8-5.5 7-3-1.2-5.5-3.5-5.5-7v-4z',
  terminal: 'M2 3h12v10H2zM4.5 6l2 2-2 2M8 10.5h3.5',
  close: 'M4 4l8 8M12 4l-8 8',
  panelLeft: 'M2 3h12v10H2zM6 3v10',
  panelRight: 'M2 3h12v10H2zM10 3v10',
  refresh: 'M13 8a5 5 0 1 1-1.5-3.5M13 2.5v3h-3',
  keyboard: 'M1.5 4.5h13v7h-13zM4 7h1M7 7h1M10 7h1M4.5 9.5h7',
  history: 'M2.5 8a5.5 5.5 0 1 0 1.6-3.9M2.5 2.5V5H5M8 5v3.2l2 1.3',
  /** Unchanged lines folded between two changes. */
  fold: 'M2.5 2.5h11M2.5 13.5h11M8 4.5v2.5M6.2 5.3L8 7l1.8-1.7M8 11.5V9M6.2 10.7L8 9l1.8 1.7',
  expand: 'M2.5 6V2.5H6M10 2.5h3.5V6M13.5 10v3.5H10M6 13.5H2.5V10',
  collapse: 'M6 2.5V6H2.5M13.5 6H10V2.5M10 13.5V10h3.5M2.5 10H6v3.5',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, size = 14, label }: { name: IconName; size?: number; label?: string }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.3"
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      <path d={paths[name]} />
    </svg>
  );
}
