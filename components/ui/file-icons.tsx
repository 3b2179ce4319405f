import type { ReactNode } from "react";

/** Drawn, not glyphs: 📎 and 📄 render as coloured emoji or not at all, font by font. */

interface IconProps {
  size?: number;
  className?: string | undefined;
}

/** A 24-unit line icon in the text's colour, hidden from assistive technology. */
function LineIcon({
  size = 16,
  className,
  strokeWidth,
  children,
}: IconProps & { strokeWidth: number; children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={className}
    >
      {children}
    </svg>
  );
}

export function PaperclipIcon(props: IconProps) {
  return (
    <LineIcon {...props} strokeWidth={2}>
      <path d="M21.4 11.1l-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5" />
    </LineIcon>
  );
}

export function FileIcon(props: IconProps) {
  return (
    <LineIcon {...props} strokeWidth={1.8}>
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5M9 13h6M9 17h6" />
    </LineIcon>
  );
}
