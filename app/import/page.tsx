import type { Metadata } from "next";
import { PageHeader } from "@/components/account/page-header";
import { ImportForm } from "@/components/import/import-form";
import { requireViewer } from "@/lib/server/page-auth";
import page from "@/components/ui/page.module.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Import · Spindle" };

/** Bring history in: a Spindle ledger or a ChatGPT export, as new sessions of the viewer's. */
export default async function ImportPage() {
  const { actor } = await requireViewer("/import");
  return (
    <main className={page.narrow}>
      <PageHeader actor={actor} title="Import" />
      <ImportForm />
    </main>
  );
}
