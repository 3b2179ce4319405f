import { NewChat } from "@/components/chat/new-chat";
import { lookupModel } from "@/lib/llm/model-registry";
import { services } from "@/lib/server/services";
import { requireViewer } from "@/lib/server/page-auth";
import { attachmentCapsOf } from "@/lib/files/limits";

export const dynamic = "force-dynamic";

/** A new chat: written only when its first message is sent (issue 21). */
export default async function NewChatPage() {
  const workspace = await requireViewer("/new");
  const { providers, config } = await services();
  const description = providers.describe();
  return (
    <NewChat
      account={{
        name: workspace.actor.name,
        accounts: config.auth,
        isAdmin: workspace.actor.isAdmin,
      }}
      model={{
        label: description.kind === "offline" ? description.label : description.model,
        offline: description.kind === "offline",
        vision: lookupModel(description.model).vision,
      }}
      caps={attachmentCapsOf(config)}
    />
  );
}
