import Link from "next/link";

export default function NotFound() {
  return (
    <main className="home">
      <h1 className="brand">Not found</h1>
      <p className="tagline">There is no session at this address. It may have been deleted.</p>
      <Link href="/" className="btn btn-primary">
        All sessions
      </Link>
    </main>
  );
}
