"use client";

import {
  memo,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  type AnchorHTMLAttributes,
} from "react";
import { Streamdown, defaultRehypePlugins, type StreamdownProps } from "streamdown";
import { createCodePlugin } from "@streamdown/code";
import { createMathPlugin } from "@streamdown/math";
import { harden } from "rehype-harden";
import s from "./markdown.module.css";

type Pluggable = NonNullable<StreamdownProps["rehypePlugins"]>[number];

// The high-contrast GitHub themes keep every token at WCAG AA (4.5:1) on the code
// background in both themes; the plain ones drop comments and constants below it.
const PLUGINS = {
  code: createCodePlugin({ themes: ["github-light-high-contrast", "github-dark-high-contrast"] }),
  // Inline `$…$` as well as display `$$…$$` (issue 21): models write both.
  math: createMathPlugin({ singleDollarTextMath: true }),
};

/**
 * streamdown's own sanitising pipeline (rehype-sanitize, raw HTML filtered), with the
 * hardening made strict: no image is ever fetched (a model steered by injected text could
 * otherwise leak the conversation through an image URL the browser loads by itself), and
 * links keep to web and mail protocols.
 */
const HARDEN: Pluggable = [
  harden,
  {
    allowedLinkPrefixes: ["*"],
    allowedProtocols: ["http", "https", "mailto"],
    allowedImagePrefixes: [],
    allowDataImages: false,
    blockedImageClass: s.blocked,
    blockedLinkClass: s.blocked,
  },
];

interface HastNode {
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

/**
 * rehype-harden titles a blocked link "Blocked URL: " and its href — which the sanitiser has
 * already removed from a `javascript:` link, so the tooltip read "Blocked URL: undefined".
 */
function blockedLinkTitles() {
  const walk = (node: HastNode) => {
    if (node.properties?.["title"] === "Blocked URL: undefined") {
      node.properties["title"] = "Link blocked: only web and mail links open from a reply";
    }
    node.children?.forEach(walk);
  };
  return walk;
}

const REHYPE_PLUGINS = [
  ...Object.values({ ...defaultRehypePlugins, harden: HARDEN }),
  blockedLinkTitles,
];

/** Links from model output open in a new tab, with no opener and no referrer. */
function ExternalLink({ href, children }: AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

const COMPONENTS = { a: ExternalLink };
const CONTROLS = { code: { copy: true, download: false }, table: false, mermaid: false };

/**
 * Model output as sanitised Markdown, rendered by streamdown: an unterminated construct is
 * repaired while it streams (never once the reply is complete), the text is split into
 * blocks so a token re-renders only the last one, code is highlighted by Shiki in the light
 * and dark themes, and every code block has a copy button. Renders on the server too.
 */
export const Markdown = memo(function Markdown({
  text,
  streaming = false,
}: {
  text: string;
  streaming?: boolean;
}) {
  const root = useRef<HTMLDivElement>(null);
  // While it streams, the text renders at low priority: a burst of tokens costs one parse
  // of the newest text, not one per token, and the render yields to input and to the rest
  // of the page. A finished reply renders at once.
  const deferred = useDeferredValue(text);
  const shown = streaming ? deferred : text;
  // A code block scrolls on its own; keyboard users must be able to reach it to scroll it.
  // Once the reply is complete: no DOM walk per streamed token.
  useEffect(() => {
    if (streaming) return;
    for (const body of root.current?.querySelectorAll<HTMLElement>(
      '[data-streamdown="code-block-body"]:not([tabindex])',
    ) ?? []) {
      body.tabIndex = 0;
    }
  }, [streaming, text]);
  // The sync render of a new token only brings the old text: it must not parse again.
  const body = useMemo(
    () => (
      <Streamdown
        className={`md ${s.md}`}
        plugins={PLUGINS}
        rehypePlugins={REHYPE_PLUGINS}
        components={COMPONENTS}
        controls={CONTROLS}
        linkSafety={{ enabled: false }}
        lineNumbers={false}
        // A table shows whole, as the rest of the reply: the transcript scrolls. Streamdown's
        // default cut it at 300 px with a scroll of its own, mid-row and with no sign of
        // more — a week's itinerary on a phone showed three days.
        tableMaxHeight={0}
        isAnimating={streaming}
        // Only a reply still streaming is repaired: a finished one shows what it says. An
        // unclosed `[`, `**` or fence in a complete reply (a model quoting a cut-off line)
        // was "closed" on screen, adding text the reply does not hold or hiding the rest.
        parseIncompleteMarkdown={streaming}
      >
        {shown}
      </Streamdown>
    ),
    [shown, streaming],
  );
  return (
    <div ref={root} className={s.root}>
      {body}
    </div>
  );
});
