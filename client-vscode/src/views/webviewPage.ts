/**
 * Puts one of our bundled pages into a webview: scripts enabled, resources only from the
 * extension's `media/` and `dist/webview/`, and the strict-CSP shell of html.ts with the
 * page's script and stylesheet. Used by the Agent view and the dependency-graph panel.
 */

import * as vscode from "vscode";
import { nonce, shell } from "./html";

export interface Page {
  title: string;
  /** the bundle in dist/webview/, e.g. "agent.js" */
  script: string;
  /** the stylesheet in media/, e.g. "agent.css" */
  style: string;
  /** Mermaid injects <style> into its SVG (styles only, never scripts) */
  inlineStyles?: boolean;
}

export function showPage(webview: vscode.Webview, extensionUri: vscode.Uri, page: Page): void {
  const media = vscode.Uri.joinPath(extensionUri, "media");
  const scripts = vscode.Uri.joinPath(extensionUri, "dist", "webview");
  webview.options = { enableScripts: true, localResourceRoots: [media, scripts] };
  webview.html = shell({
    cspSource: webview.cspSource,
    nonce: nonce(),
    title: page.title,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(scripts, page.script)).toString(),
    styleUris: [webview.asWebviewUri(vscode.Uri.joinPath(media, page.style)).toString()],
    inlineStyles: page.inlineStyles,
  });
}
