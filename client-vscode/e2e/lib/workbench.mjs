// What a user does and sees in the VS Code workbench, as Playwright steps: the command
// palette, quick inputs, editors and their text, the diff editor's title-bar actions,
// notifications, the activity bar, the code-action menu and webviews (nested iframes).
import { waitFor } from "./harness.mjs";

/** F1, type the palette title, run the matching command. */
export async function runCommand(page, title) {
  const widget = page.locator(".quick-input-widget");
  await waitFor(async () => {
    if (!(await widget.isVisible())) await page.keyboard.press("F1");
    return widget.isVisible();
  }, "the command palette", 15000, 500);
  const input = widget.locator("input.input").first();
  await input.fill(`>${title}`);
  const row = widget.locator(".monaco-list-row", { hasText: title }).first();
  await row.waitFor({ timeout: 15000 });
  await waitFor(async () => ((await widget.locator(".monaco-list-row.focused").first().textContent()) || "").includes(title),
    `"${title}" focused in the palette`, 10000);
  await page.keyboard.press("Enter");
}

/** The visible quick input (input box or quick pick), once it shows `hasText` somewhere. */
export async function quickInput(page, { hasText, timeoutMs = 20000 } = {}) {
  const widget = page.locator(".quick-input-widget");
  await widget.waitFor({ state: "visible", timeout: timeoutMs });
  if (hasText) {
    await waitFor(async () => ((await widget.innerText()) || "").toLowerCase().includes(hasText.toLowerCase()),
      `a quick input mentioning "${hasText}"`, timeoutMs);
  }
  return widget;
}

/** Types `text` into the visible quick input and presses Enter. */
export async function answerInput(page, text) {
  const widget = await quickInput(page);
  await widget.locator("input.input").first().fill(text);
  await page.keyboard.press("Enter");
}

/** Presses Enter on quick picks until the quick input closes; returns the picks' texts. */
export async function acceptDefaults(page, maxPicks = 4) {
  const widget = page.locator(".quick-input-widget");
  const seen = [];
  for (let i = 0; i < maxPicks; i++) {
    const open = await waitFor(async () => (await widget.isVisible()) ? "open" : null, "a quick pick", 3000).catch(() => null);
    if (!open) break;
    seen.push(await widget.innerText().catch(() => ""));
    await page.keyboard.press("Enter");
    await waitFor(async () => !(await widget.isVisible()) || (await widget.innerText().catch(() => "")) !== seen.at(-1),
      "the quick pick to move on", 5000).catch(() => {});
  }
  return seen;
}

/** Quick Open (Ctrl+P) a file by name. */
export async function openFile(page, name) {
  await page.keyboard.press("Control+P");
  const widget = await quickInput(page);
  await widget.locator("input.input").first().fill(name);
  await widget.locator(".monaco-list-row", { hasText: name }).first().waitFor({ timeout: 15000 });
  await page.keyboard.press("Enter");
  await page.locator(".tabs-container .tab.active", { hasText: name }).waitFor({ timeout: 15000 });
}

/** The text of a Monaco editor (visible lines, in order, NBSP as spaces). */
export async function editorText(editor) {
  const text = await editor.locator(".view-lines").first().evaluate((el) => [...el.querySelectorAll(".view-line")]
    .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top)).map((l) => l.textContent).join("\n"));
  return text.replace(/\u00a0/g, " ");
}

/** The active editor group's editor. */
export function activeEditor(page) {
  return page.locator(".editor-group-container.active .editor-instance .monaco-editor").last();
}

/** The diff editor of the active group, once open. */
export async function diffEditor(page, timeoutMs = 60000) {
  const diff = page.locator(".editor-group-container.active .monaco-diff-editor").first();
  await diff.waitFor({ state: "visible", timeout: timeoutMs });
  return diff;
}

/** A title-bar action of the active editor group ("Accept", "Reject"), by its exact label. */
export function editorTitleAction(page, label) {
  const name = new RegExp(`^(Agent: )?${label}( \\(.*\\))?$`);
  return page.locator(".editor-group-container.active .editor-actions").getByRole("button", { name }).first();
}

/** Toasts currently shown (notifications), with their text, severity and buttons. */
export async function notifications(page) {
  const toasts = page.locator(".notifications-toasts .notification-toast");
  const out = [];
  for (let i = 0; i < await toasts.count(); i++) {
    const toast = toasts.nth(i);
    const text = (await toast.locator(".notification-list-item-message").innerText().catch(() => "")) || "";
    const source = (await toast.locator(".notification-list-item-source").innerText().catch(() => "")) || "";
    const severity = await toast.locator(".notification-list-item-icon").getAttribute("class").catch(() => "") || "";
    const buttons = await toast.locator(".notification-list-item-buttons-container .monaco-button").allInnerTexts().catch(() => []);
    out.push({ toast, text, source, severity, buttons });
  }
  return out;
}

/**
 * A notification toast matching `predicate`. VS Code hides an info toast after about 15 s
 * (18 s a warning) while the window has focus, and a page slow under load may poll past
 * that: when no toast matches by the deadline, the notification center (which keeps every
 * notification) is opened and searched before giving up; the error lists what was there.
 */
export async function waitForNotification(page, predicate, what, timeoutMs = 30000) {
  try {
    return await waitFor(async () => (await notifications(page)).find(predicate), what, timeoutMs);
  } catch (error) {
    const center = await centerNotifications(page).catch(() => []);
    const found = center.find(predicate);
    if (found) return found;
    error.message += `; the notification center holds: ${JSON.stringify(center.map((n) => n.text))}`;
    throw error;
  }
}

/** Every notification in the notification center (opened if it is not). */
export async function centerNotifications(page) {
  const center = page.locator(".notifications-center");
  if (!(await center.isVisible().catch(() => false))) await runCommand(page, "Notifications: Show Notifications");
  await center.waitFor({ state: "visible", timeout: 10000 });
  const items = center.locator(".notification-list-item");
  const out = [];
  for (let i = 0; i < await items.count(); i++) {
    const item = items.nth(i);
    const text = (await item.locator(".notification-list-item-message").innerText().catch(() => "")) || "";
    const buttons = await item.locator(".notification-list-item-buttons-container .monaco-button").allInnerTexts().catch(() => []);
    out.push({ toast: item, text, source: "", severity: "", buttons });
  }
  return out;
}

/** Clicks the activity bar entry whose label starts with `label`. */
export async function openViewContainer(page, label) {
  const item = page.locator(`.activitybar .action-item a.action-label[aria-label^="${label}"]`).first();
  await item.waitFor({ timeout: 20000 });
  const checked = await item.locator("xpath=..").getAttribute("class");
  if (!/\bchecked\b/.test(checked || "")) await item.click();
}

/** Clicks the lightbulb of the selection, then the code action whose row contains `title`. */
export async function runCodeAction(page, title, nearText) {
  const bulb = page.locator(".editor-group-container.active .lightBulbWidget");
  await bulb.waitFor({ state: "visible", timeout: 20000 });
  if (nearText) {
    // The bulb first shows for the cursor's old place (the file's first line, right after
    // opening it) with the actions computed for it; clicking that one starts a run for the
    // wrong lines (seen in CI under load). Wait until it sits by the selection.
    const line = page.locator(".editor-group-container.active .view-line", { hasText: nearText }).first();
    await waitFor(async () => {
      const [b, l] = await Promise.all([bulb.boundingBox(), line.boundingBox()]);
      return b && l && Math.abs(b.y - l.y) < l.height * 2.5 ? true : null;
    }, `the lightbulb by the line "${nearText}"`, 20000);
  }
  await bulb.click();
  const widget = page.locator(".action-widget");
  await widget.locator(".monaco-list-row", { hasText: title }).first().waitFor({ timeout: 20000 });
  // Mouse clicks on the rows are intercepted by the pointer block: move the focus instead.
  for (let i = 0; i < 20; i++) {
    const focused = (await widget.locator(".monaco-list-row.focused").first().textContent().catch(() => "")) || "";
    if (focused.includes(title)) {
      await page.keyboard.press("Enter");
      return;
    }
    await page.keyboard.press("ArrowDown");
  }
  throw new Error(`code action "${title}" could not be focused`);
}

/** The frame of a webview (code-server nests it: iframe.webview > iframe#active-frame) that has `selector`. */
export async function webviewFrame(page, selector, what, timeoutMs = 30000) {
  return waitFor(async () => {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      if (await frame.$(selector).catch(() => null)) return frame;
    }
    return null;
  }, what || `a webview with ${selector}`, timeoutMs);
}
