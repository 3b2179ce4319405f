import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/account/auth-form";
import { firstRun, viewer } from "@/lib/server/page-auth";
import { services } from "@/lib/server/services";
import a from "@/components/account/account.module.css";
import page from "@/components/ui/page.module.css";

export const dynamic = "force-dynamic";

export default async function SignUpPage() {
  if (await viewer()) redirect("/");
  const first = await firstRun();
  const { config } = await services();
  const open = first || config.allowSignup;
  return (
    <main className={a.authPage}>
      <h1 className={page.brand}>Spindle</h1>
      <section className={a.card} aria-labelledby="sign-up-title">
        <h2 id="sign-up-title">{first ? "Create the admin account" : "Create an account"}</h2>
        {first && (
          <p className={a.note}>
            This server has no accounts yet. The first account administers it: it can create and
            disable the accounts of others.
          </p>
        )}
        {open ? (
          <AuthForm mode="sign-up" next="/" />
        ) : (
          <p className={a.note} role="status">
            Sign-up is closed on this server: ask its admin to create your account.
          </p>
        )}
        {!first && (
          <p className={a.note}>
            Already have an account? <Link href="/sign-in">Sign in</Link>
          </p>
        )}
      </section>
    </main>
  );
}
