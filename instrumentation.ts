// Runs once per server process before requests are served.
export async function register() {
  if (process.env["NEXT_RUNTIME"] === "nodejs") {
    const { preflight } = await import("./lib/server/preflight");
    await preflight();
  }
}
