"use client";

import { useEffect, useRef, useState, type DragEvent } from "react";

/** Whether a drag carries files (not text or a link dragged from the page). */
function carriesFiles(e: { readonly dataTransfer: DataTransfer | null }): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes("Files");
}

/** A file dropped beside the area (on the graph, the header) is ignored, not opened. */
function refuseStrayDrop(e: globalThis.DragEvent): void {
  if (carriesFiles(e)) e.preventDefault();
}

/**
 * Drag and drop of files onto an area (the transcript and the composer): the handlers to
 * spread on it and whether files are being dragged over it, for the "Drop to attach" cue.
 * Enter and leave are counted because they fire for every child crossed.
 */
export function useFileDrop(onFiles: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  // The browser's default for a file dropped on the page is to open it in the tab, leaving
  // the chat and its draft.
  useEffect(() => {
    window.addEventListener("dragover", refuseStrayDrop);
    window.addEventListener("drop", refuseStrayDrop);
    return () => {
      window.removeEventListener("dragover", refuseStrayDrop);
      window.removeEventListener("drop", refuseStrayDrop);
    };
  }, []);
  const handlers = {
    onDragEnter(e: DragEvent) {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    onDragOver(e: DragEvent) {
      if (!carriesFiles(e)) return;
      // Without this the browser refuses the drop (or opens the file in the tab).
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
    },
    onDragLeave(e: DragEvent) {
      if (!carriesFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop(e: DragEvent) {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth.current = 0;
      setDragging(false);
      const files = Array.from(e.dataTransfer.files);
      if (files.length > 0) onFiles(files);
    },
  };
  return { dragging, handlers };
}

/**
 * The files a paste brings: images copied or a screenshot taken. A paste that also holds
 * plain text (an office program puts a picture of the text beside it) pastes the text.
 */
export function filesOfPaste(data: DataTransfer | null): File[] {
  if (!data || Array.from(data.types).includes("text/plain")) return [];
  return Array.from(data.files);
}

/** A message box's `onPaste`: pasted files go to `onFiles` instead of into the text. */
export function pasteFiles(onFiles: (files: File[]) => void) {
  return (e: { readonly clipboardData: DataTransfer | null; preventDefault(): void }) => {
    const pasted = filesOfPaste(e.clipboardData);
    if (pasted.length === 0) return;
    e.preventDefault();
    onFiles(pasted);
  };
}
