import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthForm } from "@/components/account/auth-form";
import { firstRun, viewer } from "@/lib/server/page-auth";
import { returnTo } from "@/lib/server/return-to";
import { services } from "@/lib/server/services";
import a from "@/components/account/account.module.css";
import page from "@/components/ui/page.module.css";

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
    <main className={a.authPage}>
      <h1 className={page.brand}>Spindle</h1>
      <section className={a.card} aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">Sign in</h2>
        <AuthForm mode="sign-in" next={next} />
        {config.allowSignup && (
          <p className={a.note}>
            No account yet? <Link href="/sign-up">Create one</Link>
          </p>
        )}
      </section>
    </main>
  );
}
