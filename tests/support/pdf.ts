import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";

/**
 * Test PDFs written byte by byte (no binary fixtures): a document with text on its pages, the
 * same encrypted with a user password, and bombs — a page tree claiming thousands of pages,
 * and a content stream that inflates without end.
 */

type Part = string | Uint8Array;

/** A PDF of `objects` (numbered from 1; object 1 is the catalog) with a correct xref table. */
function assemble(objects: readonly Part[], trailer = ""): Uint8Array {
  const chunks: Buffer[] = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let length = chunks[0]?.length ?? 0;
  const add = (part: Part) => {
    const b = typeof part === "string" ? Buffer.from(part, "latin1") : Buffer.from(part);
    chunks.push(b);
    length += b.length;
  };
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    add(`${i + 1} 0 obj\n`);
    add(body);
    add("\nendobj\n");
  });
  const xref = length;
  add(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const o of offsets) add(`${String(o).padStart(10, "0")} 00000 n \n`);
  add(
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${xref}\n%%EOF\n`,
  );
  return new Uint8Array(Buffer.concat(chunks));
}

/** A stream object around `data` (its dictionary entries besides /Length in `dict`). */
function stream(data: Uint8Array, dict = ""): Uint8Array {
  return Buffer.concat([
    Buffer.from(`<< /Length ${data.length} ${dict}>>\nstream\n`, "latin1"),
    data,
    Buffer.from("\nendstream", "latin1"),
  ]);
}

/** A PDF string literal of ASCII `text`. */
function literal(text: string): string {
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** Each line of each page drawn in Helvetica, one page per entry. */
function pageContents(pages: readonly string[]): Uint8Array[] {
  return pages.map((page) => {
    const lines = page.split("\n").map((l) => `${literal(l)} Tj 0 -14 Td`);
    return new Uint8Array(Buffer.from(`BT /F1 12 Tf 72 720 Td ${lines.join(" ")} ET`, "latin1"));
  });
}

/** The objects of a document whose pages draw `contents`: catalog, pages, font, then pairs. */
function documentObjects(contents: readonly Uint8Array[], dict = ""): Part[] {
  const kids = contents.map((_, i) => `${4 + 2 * i} 0 R`).join(" ");
  const objects: Part[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${contents.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  contents.forEach((c, i) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`,
    );
    objects.push(stream(c, dict));
  });
  return objects;
}

/** A valid PDF whose pages carry `pages` as text (ASCII; "\n" starts a new line). */
export function makePdf(pages: readonly string[]): Uint8Array {
  return assemble(documentObjects(pageContents(pages)));
}

// The standard security handler, revision 2 (ISO 32000-1 §7.6.3): RC4 with a 40-bit key.
const PAD = Buffer.from("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a", "hex");

function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = Array.from({ length: 256 }, (_, i) => i);
  let j = 0;
  for (let i = 0; i < 256; i += 1) {
    j = (j + (s[i] ?? 0) + (key[i % key.length] ?? 0)) & 0xff;
    [s[i], s[j]] = [s[j] ?? 0, s[i] ?? 0];
  }
  const out = new Uint8Array(data.length);
  let a = 0;
  let b = 0;
  for (let k = 0; k < data.length; k += 1) {
    a = (a + 1) & 0xff;
    b = (b + (s[a] ?? 0)) & 0xff;
    [s[a], s[b]] = [s[b] ?? 0, s[a] ?? 0];
    out[k] = (data[k] ?? 0) ^ (s[((s[a] ?? 0) + (s[b] ?? 0)) & 0xff] ?? 0);
  }
  return out;
}

const md5 = (...parts: Uint8Array[]) => {
  const h = createHash("md5");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

const padded = (password: string) =>
  Buffer.concat([Buffer.from(password, "latin1"), PAD]).subarray(0, 32);

/**
 * `makePdf(pages)` encrypted as a PDF writer does for a user password: without it nobody,
 * pdf.js included, can read the text.
 */
export function makeEncryptedPdf(pages: readonly string[], password: string): Uint8Array {
  const permissions = -44;
  const id = Buffer.from("0123456789abcdef0123456789abcdef", "hex");
  const owner = rc4(md5(padded(`${password}-owner`)).subarray(0, 5), padded(password));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = md5(padded(password), owner, p, id).subarray(0, 5);
  const user = rc4(key, PAD);
  const objectKey = (n: number) =>
    md5(key, new Uint8Array([n & 0xff, (n >> 8) & 0xff, n >> 16, 0, 0])).subarray(0, 10);
  const contents = pageContents(pages);
  const objects = documentObjects(contents.map((c, i) => rc4(objectKey(5 + 2 * i), c)));
  const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
  objects.push(
    `<< /Filter /Standard /V 1 /R 2 /O <${hex(owner)}> /U <${hex(user)}> /P ${permissions} >>`,
  );
  return assemble(objects, `/Encrypt ${objects.length} 0 R /ID [<${hex(id)}> <${hex(id)}>] `);
}

/** A page tree that claims `count` pages, every kid the same one-line page. */
export function makeManyPagesPdf(count: number): Uint8Array {
  const content = pageContents(["page"])[0] ?? new Uint8Array();
  return assemble([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${Array.from({ length: count }, () => "4 0 R").join(" ")}] /Count ${count} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
    stream(content),
  ]);
}

/**
 * A zlib stream, written by hand, that inflates to `unit` (5 to 8 ASCII bytes) repeated
 * `matches` × 258 / `unit.length` times: after the literal unit come only back-references of
 * the longest length, 14 bits each. `matches` must be a multiple of 4.
 */
function repeatingZlib(unit: string, matches: number): Uint8Array {
  const bytes: number[] = [];
  let acc = 0;
  let used = 0;
  const bit = (b: number) => {
    acc |= b << used;
    used += 1;
    if (used === 8) {
      bytes.push(acc);
      acc = 0;
      used = 0;
    }
  };
  const lsb = (v: number, n: number) => {
    for (let i = 0; i < n; i += 1) bit((v >> i) & 1);
  };
  const huffman = (v: number, n: number) => {
    for (let i = n - 1; i >= 0; i -= 1) bit((v >> i) & 1);
  };
  const distance = unit.length;
  const match = () => {
    huffman(0xc5, 8); // length 258: code 285
    huffman(distance <= 6 ? 4 : 5, 5); // distance 5–6 or 7–8
    lsb(distance - (distance <= 6 ? 5 : 7), 1);
  };
  lsb(1, 1); // the final block
  lsb(1, 2); // fixed Huffman codes
  for (const c of Buffer.from(unit, "latin1")) huffman(0x30 + c, 8);
  // Four matches are 56 bits, whole bytes: after the first four, the bytes repeat.
  for (let i = 0; i < 4; i += 1) match();
  const before = bytes.length;
  for (let i = 0; i < 4; i += 1) match();
  const period = bytes.slice(before);
  const body = Buffer.alloc(before + period.length * (matches / 4 - 1));
  Buffer.from(bytes).copy(body);
  for (let at = before; at < body.length; at += period.length) Buffer.from(period).copy(body, at);
  const tail: number[] = [];
  bytes.length = 0;
  huffman(0, 7); // end of block
  if (used > 0) bytes.push(acc);
  tail.push(...bytes);
  // zlib header; the Adler-32 trailer is left zero (nobody reaches it).
  return new Uint8Array(
    Buffer.concat([Buffer.from([0x78, 0x01]), body, Buffer.from(tail), Buffer.alloc(4)]),
  );
}

/**
 * A one-page PDF whose content stream, deflated twice, inflates to about a gigabyte of
 * `(x) Tj` operators: a few kilobytes that no reader finishes.
 */
export function makePdfBomb(): Uint8Array {
  const inner = repeatingZlib("(x) Tj\n", 4_000_000);
  const outer = new Uint8Array(deflateSync(inner, { level: 9 }));
  return assemble(documentObjects([outer], "/Filter [/FlateDecode /FlateDecode] "));
}
