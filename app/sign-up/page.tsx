import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/account/auth-form";
import { firstRun, viewer } from "@/lib/server/page-auth";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

export default async function SignUpPage() {
  if (await viewer()) redirect("/");
  const first = await firstRun();
  const { config } = await services();
  const open = first || config.allowSignup;
  return (
    <main className="auth-page">
      <h1 className="brand">Spindle</h1>
      <section className="auth-card" aria-labelledby="sign-up-title">
        <h2 id="sign-up-title">{first ? "Create the admin account" : "Create an account"}</h2>
        {first && (
          <p className="auth-note">
            This server has no accounts yet. The first account administers it: it can create and
            disable the accounts of others.
          </p>
        )}
        {open ? (
          <AuthForm mode="sign-up" next="/" />
        ) : (
          <p className="auth-note" role="status">
            Sign-up is closed on this server: ask its admin to create your account.
          </p>
        )}
        {!first && (
          <p className="auth-switch">
            Already have an account? <Link href="/sign-in">Sign in</Link>
          </p>
        )}
      </section>
    </main>
  );
}
