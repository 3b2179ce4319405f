/** The default system prompt: each new session's ROOT content unless one is given ([R106]). */
export const DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant.";
