import { expect, test } from "./support/test";
import { scriptBehaviours } from "./support/scripted";
import { newSession } from "./support/session";

const script = (...behaviours: unknown[]) => scriptBehaviours(behaviours);

test("agent: the model calls task; the sub-agent card shows, then the answer; its branch opens", async ({
  page,
}, testInfo) => {
  await newSession(page, "E2E agent");

  // Tools on for this session (the test model is unknown to the registry: off by default).
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByLabel(/Tools the model may call/).selectOption("on");
  await page.getByRole("button", { name: "Save" }).click();

  await script(
    {
      kind: "tool_calls",
      text: "Let me delegate that.",
      calls: [
        { id: "call_e2e", name: "task", arguments: '{"prompt":"Find the capital of France."}' },
      ],
    },
    { kind: "reply", text: "Paris is the capital of France." },
    { kind: "reply", text: "The sub-agent found it: **Paris**." },
  );
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("What is the capital of France? Use a sub-agent.");
  await box.press("Enter");

  const card = page.locator(".tool-card");
  await expect(card).toContainText("Sub-agent");
  await expect(card).toContainText("Find the capital of France.");
  await expect(card).toContainText("done");
  await expect(page.locator("article.msg-assistant").last()).toContainText(
    "The sub-agent found it: Paris.",
  );
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  const shot = testInfo.outputPath("agent.png");
  await page.screenshot({ path: shot });
  await testInfo.attach("agent", { path: shot, contentType: "image/png" });

  // Opening the sub-agent's branch checks it out: the transcript follows HEAD there.
  await card.getByRole("button", { name: "Open its branch" }).click();
  await expect(page.locator("article.msg-user").last()).toContainText(
    "Find the capital of France.",
  );
  await expect(page.locator("article.msg-assistant").last()).toContainText(
    "Paris is the capital of France.",
  );
});
