import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/account/auth-form";
import { firstRun, viewer } from "@/lib/server/page-auth";
import { returnTo } from "@/lib/server/return-to";
import { services } from "@/lib/server/services";

export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const next = returnTo((await searchParams)["next"]);
  if (await viewer()) redirect(next);
  if (await firstRun()) redirect("/sign-up");
  const { config } = await services();
  return (
    <main className="auth-page">
      <h1 className="brand">Spindle</h1>
      <section className="auth-card" aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">Sign in</h2>
        <AuthForm mode="sign-in" next={next} />
        {config.allowSignup && (
          <p className="auth-switch">
            No account yet? <Link href="/sign-up">Create one</Link>
          </p>
        )}
      </section>
    </main>
  );
}
