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
};

export default nextConfig;
