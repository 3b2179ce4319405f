import Link from "next/link";
import s from "@/components/home/home.module.css";
import page from "@/components/ui/page.module.css";

export default function NotFound() {
  return (
    <main className={s.home}>
      <h1 className={page.brand}>Not found</h1>
      <p className={s.tagline}>There is no session at this address. It may have been deleted.</p>
      <Link href="/" className="btn btn-primary">
        All sessions
      </Link>
    </main>
  );
}
