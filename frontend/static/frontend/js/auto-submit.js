// Submits a form as soon as one of its `[data-auto-submit]` fields changes (the release picker),
// in place of an inline onchange handler, which the Content-Security-Policy forbids. Without
// JavaScript the form's own button (in <noscript>) does the same.
for (const field of document.querySelectorAll("[data-auto-submit]")) {
  field.addEventListener("change", () => field.form?.submit());
}
