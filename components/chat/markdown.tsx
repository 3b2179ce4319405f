"use client";

import { memo, useMemo } from "react";
import DOMPurify from "dompurify";
import { marked } from "marked";

marked.setOptions({ gfm: true, breaks: true });

// Links from model output open in a new tab and never get the opener.
let hooked = false;
function purifier() {
  if (!hooked) {
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer nofollow");
      }
    });
    hooked = true;
  }
  return DOMPurify;
}

/**
 * Model output as sanitised Markdown (remote media is dropped: nothing loads by itself): parsed by marked, then every tag and attribute outside
 * DOMPurify's safe profile (scripts, event handlers, javascript: URLs, forms, iframes…) is
 * dropped before it reaches the DOM.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const html = useMemo(() => {
    const raw = marked.parse(text, { async: false });
    return purifier().sanitize(raw, {
      USE_PROFILES: { html: true },
      // No <img>: a model steered by injected text could exfiltrate the conversation
      // through an image URL the browser fetches on its own.
      FORBID_TAGS: [
        "style",
        "form",
        "input",
        "button",
        "textarea",
        "select",
        "iframe",
        "img",
        "video",
        "audio",
        "source",
        "picture",
      ],
      FORBID_ATTR: ["style"],
    });
  }, [text]);
  return <div className="md" dangerouslySetInnerHTML={{ __html: html }} />;
});
