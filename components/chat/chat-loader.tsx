"use client";

import dynamic from "next/dynamic";
import type { ChatAppProps } from "./chat-app";

// The chat renders in the browser only: model output is sanitised with DOMPurify, which
// needs a DOM, and nothing in the transcript is useful to a crawler.
const ChatApp = dynamic(() => import("./chat-app").then((m) => m.ChatApp), {
  ssr: false,
  loading: () => <p className="loading">Loading conversation…</p>,
});

export function ChatLoader(props: ChatAppProps) {
  return <ChatApp {...props} />;
}
