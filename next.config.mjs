/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native drivers and the Prisma adapters stay outside the server bundle.
  serverExternalPackages: [
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "better-sqlite3",
    "pg",
  ],
  poweredByHeader: false,
  experimental: {
    // The proxy (proxy.ts) reads only the request line and headers, but Next buffers bodies
    // for it and silently cuts them at 10 MB by default: a bigger ledger import arrived
    // truncated and was refused as "not valid JSON". The routes cap bodies themselves
    // (SPINDLE_MAX_BODY_BYTES, SPINDLE_MAX_IMPORT_BYTES → 413), so this only has to stay
    // above those caps.
    proxyClientMaxBodySize: 1024 * 1024 * 1024,
  },
  async headers() {
    return [
      {
        // Pages get their policy, with a fresh script nonce, from proxy.ts (lib/http/csp.ts).
        // Every other answer is data: nothing in it may run, load or be framed, and a file
        // opened on its own (an attachment) is sandboxed. This header wins over a route's
        // own, so it is the whole policy of every /api/ answer.
        source: "/api/:path*",
        headers: [
          {
            key: "Content-Security-Policy",
            value: "default-src 'none'; frame-ancestors 'none'; sandbox",
          },
        ],
      },
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
