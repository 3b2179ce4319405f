/**
 * What an uploaded file is, judged from its bytes alone (docs/spec.md "Attachments", R261):
 * the name and the type the client claims decide nothing. Pure: no I/O, no clock.
 *
 * Accepted kinds:
 * - images — PNG, JPEG, WebP, GIF — whose header parses to real dimensions (a PNG signature
 *   in front of an HTML page has no valid IHDR chunk and is refused);
 * - text and source files: valid UTF-8 without NUL bytes and with few control characters.
 *   They are stored as `text/plain` whatever they contain, so an HTML page or an SVG with a
 *   script is never served as markup (it downloads, R269);
 * - PDF (`%PDF-`): recognised here, its text read by lib/files/pdf-reader.ts (R277) — the
 *   model reads a PDF as the text it holds, so its kind is `text`, its type
 *   `application/pdf`.
 */

/** How a prompt reads an attachment: an image part, or text inlined after the message. */
export type AttachmentKind = "image" | "text";

/** The image types a browser may show inline (R269); every other type downloads. */
export const INLINE_IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export type ImageMime = (typeof INLINE_IMAGE_TYPES)[number];

/** The kinds the server accepts, as the 415 answer lists them. */
export const ACCEPTED_KINDS =
  "PNG, JPEG, WebP and GIF images, PDF documents (read as their text), and UTF-8 text or source files";

export type Judged =
  | {
      readonly kind: "image";
      readonly mime: ImageMime;
      readonly width: number;
      readonly height: number;
    }
  | { readonly kind: "text"; readonly mime: "text/plain"; readonly text: string }
  /** A PDF by its header; whether its text can be read is lib/files/read-file.ts's call. */
  | { readonly kind: "pdf"; readonly mime: "application/pdf" }
  | { readonly kind: "refused"; readonly reason: string };

/**
 * An accepted file as prompts read it: an image, or text — a text file's own, or the text a
 * PDF holds (its bytes stay the PDF's).
 */
export type ReadableFile =
  | Extract<Judged, { kind: "image" }>
  | {
      readonly kind: "text";
      readonly mime: "text/plain" | "application/pdf";
      readonly text: string;
    };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((b, i) => bytes[at + i] === b);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  if (bytes.length < at + length) return "";
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function u16be(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
}
function u16le(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
}
function u24le(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16);
}
function u32be(b: Uint8Array, at: number): number {
  return (
    (((b[at] ?? 0) << 24) >>> 0) +
    (((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0))
  );
}

/** Largest side an image may declare; anything bigger is a decompression bomb or garbage. */
const MAX_SIDE = 65_535;

function dims(width: number, height: number): { width: number; height: number } | null {
  if (!Number.isInteger(width) || !Number.isInteger(height)) return null;
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) return null;
  return { width, height };
}

function pngSize(b: Uint8Array) {
  // Signature, then the first chunk must be IHDR of length 13.
  if (u32be(b, 8) !== 13 || ascii(b, 12, 4) !== "IHDR") return null;
  return dims(u32be(b, 16), u32be(b, 20));
}

function gifSize(b: Uint8Array) {
  return dims(u16le(b, 6), u16le(b, 8));
}

function jpegSize(b: Uint8Array) {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1] ?? 0;
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    // Markers without a length.
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = u16be(b, i + 2);
    if (length < 2) return null;
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return dims(u16be(b, i + 7), u16be(b, i + 5));
    }
    i += 2 + length;
  }
  return null;
}

function webpSize(b: Uint8Array) {
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8 " && b.length >= 30) {
    // Key frame start code 9d 01 2a, then 14-bit width and height.
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23)) return null;
    return dims(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  }
  if (chunk === "VP8L" && b.length >= 25) {
    if (b[20] !== 0x2f) return null;
    const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
    return dims((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === "VP8X" && b.length >= 30) {
    return dims(u24le(b, 24) + 1, u24le(b, 27) + 1);
  }
  return null;
}

/** The share of control characters a text may have (a binary file decoded as UTF-8 has many). */
const MAX_CONTROL_SHARE = 0.01;

function asText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
  let controls = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) || c === 0x7f) {
      controls += 1;
    }
  }
  if (text.length > 0 && controls / text.length > MAX_CONTROL_SHARE) return null;
  return text;
}

/** Judges `bytes` by their content. */
export function judgeFile(bytes: Uint8Array): Judged {
  if (bytes.length === 0) return { kind: "refused", reason: "The file is empty." };
  if (startsWith(bytes, PNG_SIGNATURE)) {
    const size = pngSize(bytes);
    return size
      ? { kind: "image", mime: "image/png", ...size }
      : { kind: "refused", reason: "The file starts like a PNG but is not a valid PNG image." };
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
    const size = jpegSize(bytes);
    return size
      ? { kind: "image", mime: "image/jpeg", ...size }
      : { kind: "refused", reason: "The file starts like a JPEG but is not a valid JPEG image." };
  }
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") {
    const size = gifSize(bytes);
    return size
      ? { kind: "image", mime: "image/gif", ...size }
      : { kind: "refused", reason: "The file starts like a GIF but is not a valid GIF image." };
  }
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") {
    const size = webpSize(bytes);
    return size
      ? { kind: "image", mime: "image/webp", ...size }
      : { kind: "refused", reason: "The file starts like a WebP but is not a valid WebP image." };
  }
  if (ascii(bytes, 0, 5) === "%PDF-") return { kind: "pdf", mime: "application/pdf" };
  const text = asText(bytes);
  if (text !== null) return { kind: "text", mime: "text/plain", text: text.replace(/^\uFEFF/, "") };
  return { kind: "refused", reason: "The file is neither an image nor UTF-8 text." };
}

/** Longest stored file name, in code points. */
export const MAX_NAME_CHARS = 200;

/**
 * A file name safe to store and show: the last path segment only (no `../`, no folders), no
 * control, format or bidirectional-override characters (U+202E could make `gpj.exe` read as
 * `exe.jpg`), NFC-normalised, at most {@link MAX_NAME_CHARS} code points with the extension
 * kept, and never empty, `.` or `..`.
 */
export function sanitiseFileName(raw: string): string {
  const lastSegment = raw.split(/[/\\]/).at(-1) ?? "";
  const cleaned = lastSegment
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\uFFFD]/gu, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "");
  const chars = Array.from(cleaned);
  if (chars.length === 0) return "file";
  if (chars.length <= MAX_NAME_CHARS) return cleaned;
  const dot = cleaned.lastIndexOf(".");
  const ext = dot > 0 ? Array.from(cleaned.slice(dot)).slice(0, 16).join("") : "";
  return chars.slice(0, MAX_NAME_CHARS - Array.from(ext).length).join("") + ext;
}

/**
 * The prompt tokens of an image, by OpenAI's published formula for `detail: "high"`
 * (platform.openai.com/docs/guides/images-vision, "Calculating costs"): the image is scaled
 * to fit 2048×2048, then so its shorter side is 768 px (neither step enlarges it); it costs
 * 85 base tokens plus 170 per 512-px tile of the result.
 */
export function imageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shorter = Math.min(w, h);
  if (shorter > 768) {
    const s = 768 / shorter;
    w *= s;
    h *= s;
  }
  const tiles = Math.ceil(Math.floor(w) / 512) * Math.ceil(Math.floor(h) / 512);
  return 85 + 170 * tiles;
}

/**
 * What an accepted file adds to every prompt that reads its message (R266): an image by
 * {@link imageTokens}, a text file or a PDF's text as the fenced block the model reads, counted by `count`
 * (the model's tokenizer). The upload and the ledger import price files by this one rule.
 */
export function attachmentTokens(
  file: ReadableFile,
  name: string,
  count: (text: string) => number,
): number {
  return file.kind === "image"
    ? imageTokens(file.width, file.height)
    : count(fencedFile(name, file.text));
}

/**
 * A text attachment as the model reads it: headed by its file name, in a fence longer than
 * any run of backticks inside, so the file cannot close the block early.
 */
export function fencedFile(name: string, text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(Math.max(3, longest + 1));
  const body = text.endsWith("\n") ? text : `${text}\n`;
  return `File: ${name}\n${fence}\n${body}${fence}`;
}

/** The line the summariser reads for an image (it never sees the pixels). */
export function imageNote(name: string, width: number, height: number): string {
  return `[Image attached: ${name}, ${width}×${height}]`;
}
