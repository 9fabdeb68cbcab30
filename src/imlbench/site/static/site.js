// Filters, text search and sorting of the site's tables (plain JavaScript, no network).
// A `.filterable` block holds selects `[data-filter=COL]` (options: the values of the rows'
// `data-COL` attributes), a search box `[data-search]`, a count `[data-shown]` and a table;
// the page's query string presets the selects (claims.html?study=X&verdict=not%20reproduced).
"use strict";

function setUpFilters(block) {
  const rows = Array.from(block.querySelectorAll("tbody tr"));
  const selects = Array.from(block.querySelectorAll("select[data-filter]"));
  const search = block.querySelector("[data-search]");
  const shown = block.querySelector("[data-shown]");
  const params = new URLSearchParams(window.location.search);
  for (const select of selects) {
    const col = select.dataset.filter;
    const values = Array.from(new Set(rows.map((r) => r.getAttribute("data-" + col) || "")));
    values.sort();
    for (const v of values) {
      const option = document.createElement("option");
      option.value = v;
      option.textContent = v === "" ? "(none)" : v;
      select.appendChild(option);
    }
    if (params.has(col)) select.value = params.get(col);
    select.addEventListener("change", apply);
  }
  if (search) {
    if (params.has("q")) search.value = params.get("q");
    search.addEventListener("input", apply);
  }
  function apply() {
    const wanted = selects.map((s) => [s.dataset.filter, s.value]);
    const words = search ? search.value.toLowerCase().split(/\s+/).filter(Boolean) : [];
    let n = 0;
    for (const row of rows) {
      const text = row.textContent.toLowerCase();
      const show = wanted.every(([col, v]) => v === "" || row.getAttribute("data-" + col) === v)
        && words.every((w) => text.includes(w));
      row.hidden = !show;
      if (show) n += 1;
    }
    if (shown) shown.textContent = String(n);
  }
  apply();
}

function setUpSorting(table) {
  const body = table.tBodies[0];
  const heads = Array.from(table.tHead.rows[0].cells);
  heads.forEach((th, i) => {
    th.classList.add("sort");
    th.title = "sort";
    th.addEventListener("click", () => {
      const up = th.dataset.order !== "up";
      heads.forEach((h) => delete h.dataset.order);
      th.dataset.order = up ? "up" : "down";
      const key = (row) => row.cells[i].textContent.trim();
      const rows = Array.from(body.rows);
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        const nx = parseFloat(x), ny = parseFloat(y);
        const c = !isNaN(nx) && !isNaN(ny) && String(nx) === x && String(ny) === y
          ? nx - ny : x.localeCompare(y, undefined, { numeric: true });
        return up ? c : -c;
      });
      for (const row of rows) body.appendChild(row);
    });
  });
}

document.querySelectorAll(".filterable").forEach(setUpFilters);
document.querySelectorAll("table.sortable").forEach(setUpSorting);
