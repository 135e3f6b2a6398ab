// "Copy" buttons of a citation: copy the text or BibTeX next to them. Where the clipboard is not
// available (an insecure origin, a refused permission), the text is selected instead, ready for
// Ctrl+C, and the button says so.
function selectText(element) {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

for (const button of document.querySelectorAll("button[data-copy]")) {
  const source = document.getElementById(button.dataset.copy);
  if (!source) continue;
  const label = button.textContent;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(source.textContent);
      button.textContent = "Copied";
    } catch {
      selectText(source);
      button.textContent = "Selected: press Ctrl+C";
    }
    setTimeout(() => { button.textContent = label; }, 2500);
  });
}
