/** The e2e servers' ports: the app, the agent-flow app, and the scripted OpenAI endpoint. */
export const PORT = Number(process.env["E2E_PORT"] ?? 3200);
export const AGENT_PORT = PORT + 1;
export const FAKE_OPENAI_URL = `http://127.0.0.1:${PORT + 10}`;
