/** The 'Preview unavailable' card drawn in the page's own picture while it cannot show the page. */
export function placeholderHtml(reason: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Preview unavailable</title><style>
html,body{margin:0;height:100%;background:#1f2127;color:#f2f3f5;font-family:'DejaVu Sans',sans-serif}
body{display:flex;flex-direction:column;align-items:center;justify-content:center;text-align:center}
h1{font-size:32px;font-weight:600;margin:0 0 12px}p{font-size:18px;max-width:80%;margin:0;color:#b9bcc4}
</style></head><body><h1>Preview unavailable</h1><p>${escapeHtml(reason)}</p></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
