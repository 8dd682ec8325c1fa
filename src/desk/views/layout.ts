// The document shell of the editor's desk: same policy as the site (no inline script or style; the stylesheet and
// the small drag-reorder script are files served from the same origin), a header with the sign-out form.
import { type Fragment, html } from '../../publish/template.js';
import type { DeskPageContext } from './view-model.js';

const DESK_ASSETS = { css: '/desk-assets/desk.css', js: '/desk-assets/desk.js' } as const;

export function csrfField(context: DeskPageContext): Fragment {
  return html`<input type="hidden" name="csrf" value="${context.csrf}">`;
}

/**
 * A wide table in a box that scrolls sideways on a phone instead of the page; focusable with a name, so a keyboard
 * user can scroll it too.
 */
export function scrollingTable(label: string, table: Fragment): Fragment {
  return html`<div class="table-scroll" role="region" aria-label="${label}" tabindex="0">${table}</div>`;
}

export function renderDeskPage(
  context: DeskPageContext,
  options: { title: string; body: Fragment; script?: boolean },
): string {
  const nav = context.editor
    ? html`<nav aria-label="Desk"><a href="/admin">This week</a> <a href="/admin/readers">Readers</a> <a href="/admin/audit">Audit log</a></nav>
<form method="post" action="/admin/logout" class="signout">${csrfField(context)}
<span>${context.editor}</span> <button type="submit">Sign out</button></form>`
    : null;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<meta name="robots" content="noindex, nofollow">
<title>${options.title} — ${context.siteName} desk</title>
<link rel="stylesheet" href="${DESK_ASSETS.css}">
${options.script ? html`<script src="${DESK_ASSETS.js}" defer></script>` : null}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="desk-header"><span class="desk-name">${context.siteName} · editor's desk</span>${nav}</header>
<main id="main">
${options.body}
</main>
</body>
</html>
`.toString();
}

/** A short page for a refusal or an error: what happened and where to go next. */
export function renderDeskMessage(
  context: DeskPageContext,
  options: { title: string; message: string; back: string; correct?: string },
): string {
  return renderDeskPage(context, {
    title: options.title,
    body: html`<h1>${options.title}</h1>
<p class="message" role="alert">${options.message}</p>
${
  // A refused change of a published edition: the honest way to change it, one click away.
  options.correct
    ? html`<form method="get" action="${options.correct}"><p><button type="submit">Correct this edition</button></p></form>`
    : null
}<p><a href="${options.back}">Back</a></p>`,
  });
}

export function renderLoginPage(
  context: DeskPageContext,
  options: { error: string | null; next: string },
): string {
  return renderDeskPage(context, {
    title: 'Sign in',
    body: html`<h1>Sign in to the editor's desk</h1>
${options.error ? html`<p class="message" role="alert">${options.error}</p>` : null}
<form method="post" action="/admin/login" class="login">
${csrfField(context)}
<input type="hidden" name="next" value="${options.next}">
<p><label for="email">E-mail</label><br><input id="email" name="email" type="email" autocomplete="username" required></p>
<p><label for="password">Password</label><br><input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>`,
  });
}
