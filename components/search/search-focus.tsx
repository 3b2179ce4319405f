"use client";

import { useEffect } from "react";
import { asNodeId } from "@/lib/engine/ids";
import { useSessionStoreApi } from "@/components/session/session-context";
import styles from "./search.module.css";

/**
 * The session page opened at a node (`?node=`, a search result): once the transcript shows
 * that node's message, it is scrolled into view and highlighted briefly, and `?node=` leaves
 * the address so a reload does not switch branches again. The transcript is virtualised:
 * the row is first brought into view through the store, then found in the DOM.
 */
export function SearchFocus({ nodeId }: { nodeId: string }) {
  const store = useSessionStoreApi();
  useEffect(() => {
    store.getState().revealNode(asNodeId(nodeId));
    const url = new URL(window.location.href);
    if (url.searchParams.has("node")) {
      url.searchParams.delete("node");
      window.history.replaceState(null, "", url);
    }
    let frame = 0;
    const reveal = (el: Element) => {
      // Two frames: after the transcript's own effects (it keeps to the bottom) have run.
      frame = window.requestAnimationFrame(() => {
        frame = window.requestAnimationFrame(() => {
          el.scrollIntoView({ block: "center" });
          el.classList.add(styles.focused ?? "");
        });
      });
    };
    const find = () => document.querySelector(`[data-node-id="${CSS.escape(nodeId)}"]`);
    const found = find();
    if (found) reveal(found);
    // The row may mount only once the transcript has scrolled to it: wait for it.
    const observer = new MutationObserver(() => {
      const el = find();
      if (el) {
        observer.disconnect();
        reveal(el);
      }
    });
    if (!found) observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      window.cancelAnimationFrame(frame);
    };
  }, [nodeId, store]);
  return null;
}
