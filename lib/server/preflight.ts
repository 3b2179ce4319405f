import { parseConfig, ConfigError } from "../config/env";
import { describeStartupError } from "../db/startup-error";
import { services } from "./services";

/**
 * A bad configuration or an unreachable database stops the server with one clear line
 * instead of failing on every request.
 */
export async function preflight(): Promise<void> {
  let url = "";
  try {
    url = parseConfig(process.env).databaseUrl;
    const { database } = await services();
    await database.db.$queryRawUnsafe("SELECT 1");
  } catch (e) {
    const line =
      e instanceof ConfigError || (e instanceof Error && e.name === "ConfigError")
        ? `configuration error: ${e.message}`
        : describeStartupError(e, url);
    console.error(`spindle: ${line}`);
    process.exit(1);
  }
}
