import type { ShortcutSection } from "@/components/shortcuts/registry";

/** The chat page's keys (composer.tsx, chat-app.tsx, the search launcher), for the `?` list. */
export const CHAT_SHORTCUTS: ShortcutSection = {
  id: "chat",
  title: "Chat",
  where: "anywhere on the chat page",
  shortcuts: [
    { keys: ["Enter"], what: "Send the message (in the message box)" },
    { keys: ["Shift", "Enter"], what: "A new line in the message box" },
    { keys: ["/"], what: "Commands, typed at the start of the message box" },
    { keys: ["Esc"], what: "Stop the reply that is streaming" },
    { keys: ["Ctrl/⌘", "K"], what: "Search every conversation" },
    { keys: ["Ctrl/⌘", "Shift", "O"], what: "New chat (saved when its first message is sent)" },
    { keys: ["?"], what: "This list (outside a text field)" },
  ],
};
