import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config/env";
import { clientView } from "@/lib/http/client-address";

describe("[R146] SPINDLE_TRUSTED_PROXIES", () => {
  it("[R146] lists addresses, normalised; anything else stops start-up with one line", () => {
    expect(parseConfig({}).trustedProxies).toEqual([]);
    expect(
      parseConfig({ SPINDLE_TRUSTED_PROXIES: "10.0.0.1, ::FFFF:10.0.0.2 [::1]" }).trustedProxies,
    ).toEqual(["10.0.0.1", "10.0.0.2", "::1"]);
    expect(() => parseConfig({ SPINDLE_TRUSTED_PROXIES: "proxy.example" })).toThrow(ConfigError);
    expect(() => parseConfig({ SPINDLE_TRUSTED_PROXIES: "10.0.0.0/8" })).toThrow(
      /SPINDLE_TRUSTED_PROXIES/,
    );
  });

  it("[R146] the client is the socket's peer unless that peer is trusted; then the rightmost untrusted hop", () => {
    const h = new Headers({
      host: "127.0.0.1:3000",
      "x-forwarded-for": "1.1.1.1, 2.2.2.2, 10.0.0.2",
      "x-forwarded-host": "evil.example, chat.example.org",
      "x-forwarded-proto": "https",
    });
    expect(clientView(h, "203.0.113.9", ["10.0.0.1"])).toEqual({
      address: "203.0.113.9",
      host: "127.0.0.1:3000",
      proto: null,
      viaTrustedProxy: false,
    });
    expect(clientView(h, "::ffff:10.0.0.1", ["10.0.0.1", "10.0.0.2"])).toEqual({
      address: "2.2.2.2",
      host: "chat.example.org",
      proto: "https:",
      viaTrustedProxy: true,
    });
    expect(clientView(h, null, ["10.0.0.1"]).address).toBe("unknown");
  });
});
