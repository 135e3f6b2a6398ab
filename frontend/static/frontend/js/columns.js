// "Show every column" on a list table whose narrow-screen layout shows its most important columns
// first (site.css, .priority-columns). Without JavaScript the priority layout stays, and the
// downloads hold every column.
for (const button of document.querySelectorAll("[data-role=all-columns]")) {
  const table = document.getElementById(button.getAttribute("aria-controls"));
  if (!table) continue;
  button.closest(".column-toggle").hidden = false;
  button.addEventListener("click", () => {
    const showing = table.classList.toggle("show-all-columns");
    button.setAttribute("aria-pressed", String(showing));
    button.textContent = showing ? "Show the main columns" : "Show every column";
  });
}
