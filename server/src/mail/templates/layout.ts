/**
 * The shared frame of every email: a white card on a light background, the indigo header and
 * button of the app, system fonts, inline CSS only (mail clients drop <style> blocks).
 */

export const PRODUCT_NAME = 'Portfolio Guard';

export const COLORS = {
  primary: '#3730a3',
  text: '#1f2937',
  muted: '#6b7280',
  background: '#f3f4f6',
  card: '#ffffff',
  border: '#e5e7eb',
  noteBackground: '#fef3c7',
  noteText: '#92400e',
} as const;

export const FONT_STACK =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and double- or single-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

/** A button-styled link (a table cell, so Outlook keeps the colour). `url` is escaped here. */
export function button(url: string, label: string): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:24px 0;">
<tr><td style="border-radius:6px;background:${COLORS.primary};">
<a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 24px;font-family:${FONT_STACK};font-size:15px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:6px;">${escapeHtml(label)}</a>
</td></tr></table>`;
}

/** A paragraph of already-escaped HTML. */
export function paragraph(html: string, color: string = COLORS.text): string {
  return `<p style="margin:0 0 16px;font-size:15px;line-height:1.6;color:${color};">${html}</p>`;
}

/** A yellow note box (already-escaped HTML). */
export function note(html: string): string {
  return `<p style="margin:0 0 16px;padding:12px 16px;border-radius:6px;background:${COLORS.noteBackground};color:${COLORS.noteText};font-size:14px;line-height:1.5;">${html}</p>`;
}

export interface LayoutOptions {
  /** The document title and the heading inside the card (plain text). */
  title: string;
  /** The hidden one-line preview mail clients show beside the subject (plain text). */
  preheader: string;
  /** The card's body, already-escaped HTML. */
  body: string;
  /** A footer line (plain text). */
  footer: string;
}

export function renderLayout({ title, preheader, body, footer }: LayoutOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body style="margin:0;padding:0;background:${COLORS.background};font-family:${FONT_STACK};color:${COLORS.text};">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;">${escapeHtml(preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${COLORS.background};">
<tr><td align="center" style="padding:32px 16px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:${COLORS.card};border:1px solid ${COLORS.border};border-radius:8px;overflow:hidden;">
<tr><td style="background:${COLORS.primary};padding:20px 32px;font-family:${FONT_STACK};font-size:18px;font-weight:700;color:#ffffff;">${PRODUCT_NAME}</td></tr>
<tr><td style="padding:32px;font-family:${FONT_STACK};">
<h1 style="margin:0 0 20px;font-size:20px;line-height:1.3;color:${COLORS.text};">${escapeHtml(title)}</h1>
${body}
</td></tr>
</table>
<p style="margin:16px 0 0;max-width:560px;font-family:${FONT_STACK};font-size:12px;line-height:1.5;color:${COLORS.muted};">${escapeHtml(footer)}</p>
</td></tr>
</table>
</body>
</html>
`;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}
