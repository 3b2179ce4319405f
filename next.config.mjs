const dev = process.env.NODE_ENV !== "production";

// Scripts: Next's own chunks plus its inline bootstrap; `unsafe-eval` only for the dev
// server's hot reload. Model output never reaches the DOM unsanitised (components/chat), so
// the CSP is the second line, not the first. `frame-ancestors 'none'` stops clickjacking.
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

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
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: csp },
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
