// The page checks of tests/e2e/geometry.py, run in the page by Playwright (page.evaluate): one
// arrow function taking [edgePx, headerGapPx] and returning the problems it finds, as sentences.
([edgePx, headerGapPx]) => {
    const problems = [];
    const name = (e) => {
        const cls = typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : "";
        const text = (e.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
        return `${e.tagName.toLowerCase()}${cls} "${text}"`;
    };
    const shown = (e) => {
        const style = getComputedStyle(e);
        const box = e.getBoundingClientRect();
        return style.visibility !== "hidden" && style.display !== "none" && box.width > 1 && box.height > 1;
    };
    // Hidden on purpose: the inside of a closed <details> (laid out by chromium all the same),
    // screen-reader-only text (a 1 px box or clipped away).
    const meantHidden = (e) => {
        for (let p = e, child = null; p && p !== document.body; child = p, p = p.parentElement) {
            if (p.tagName === "DETAILS" && !p.open && !(child && child.tagName === "SUMMARY")) return true;
            const style = getComputedStyle(p);
            if (style.clipPath !== "none" || style.clip !== "auto") return true;
            const box = p.getBoundingClientRect();
            if (box.width <= 1 || box.height <= 1) return true;
        }
        return false;
    };
    const scrolls = (v) => v === "auto" || v === "scroll";

    // 2. Chart labels: inside their chart, not printed over each other. A label's box is its glyphs'
    // box turned as the label is (axis labels are often rotated), so two slanted labels side by side
    // are apart when their letters are.
    const corners = (t) => {
        const b = t.getBBox();
        const m = t.getScreenCTM();
        return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
            .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
    };
    // Separating axes: two convex boxes overlap when they overlap along every edge's normal; by more
    // than `air` px, since glyph boxes hold some space above and below the letters.
    const overlapping = (p, q, air) => {
        for (const poly of [p, q]) {
            for (let i = 0; i < poly.length; i++) {
                const [x1, y1] = poly[i];
                const [x2, y2] = poly[(i + 1) % poly.length];
                const length = Math.hypot(x2 - x1, y2 - y1) || 1;
                const along = ([x, y]) => (x * (y2 - y1) - y * (x2 - x1)) / length;
                const a = p.map(along);
                const b = q.map(along);
                if (Math.min(Math.max(...a), Math.max(...b)) - Math.max(Math.min(...a), Math.min(...b)) <= air) return false;
            }
        }
        return true;
    };
    for (const svg of document.querySelectorAll("svg")) {
        if (!shown(svg) || meantHidden(svg)) continue;
        const frame = svg.getBoundingClientRect();
        const labels = [...svg.querySelectorAll("text")].filter((t) => {
            const style = getComputedStyle(t);
            return (t.textContent || "").trim() && style.display !== "none" && style.visibility !== "hidden"
                && Number(style.opacity) > 0 && t.getBBox().width > 0;
        });
        const boxes = labels.map(corners);
        labels.forEach((t, i) => {
            const outside = boxes[i].some(([x, y]) =>
                x < frame.left - 1 || x > frame.right + 1 || y < frame.top - 1 || y > frame.bottom + 1);
            if (outside) problems.push(`chart label cut at its chart's edge: "${t.textContent.trim()}"`);
        });
        for (let i = 0; i < boxes.length; i++) {
            for (let j = i + 1; j < boxes.length; j++) {
                if (overlapping(boxes[i], boxes[j], 2)) {
                    problems.push(`chart labels over each other: "${labels[i].textContent.trim()}" and "${labels[j].textContent.trim()}"`);
                }
            }
        }
    }

    // 1. Text cut off by a box that hides its overflow instead of scrolling it; 3. text touching the
    // screen's left or right edge or running into its card's border (what shows of it, inside any box
    // that scrolls).
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const cut = new Set();
    const edgeHits = new Set();
    const pastBox = new Set();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent.trim()) continue;
        const owner = node.parentElement;
        if (!owner || owner.closest("svg") || ["SCRIPT", "STYLE", "NOSCRIPT", "OPTION"].includes(owner.tagName)) continue;
        if (!shown(owner) || meantHidden(owner)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
            let left = r.left;
            let right = r.right;
            for (let p = owner; p && p !== document.body; p = p.parentElement) {
                const style = getComputedStyle(p);
                if (style.overflowX === "visible") continue;
                const clip = p.getBoundingClientRect();
                const hides = !scrolls(style.overflowX) && style.textOverflow !== "ellipsis";
                if (hides && (right > clip.right + 1 || left < clip.left - 1)) cut.add(`${name(owner)} in ${name(p)}`);
                left = Math.max(left, clip.left);
                right = Math.min(right, clip.right);
            }
            if (right - left < 1) continue;
            if (left < edgePx || right > window.innerWidth - edgePx) edgeHits.add(name(owner));
            // Inside a bordered box, text keeps to the box's padding: past it, it touches or crosses
            // the border.
            const box = owner.closest(".card, .notice, .message, .empty-state");
            if (box) {
                const frame = box.getBoundingClientRect();
                const style = getComputedStyle(box);
                const inner = [frame.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft) / 2,
                    frame.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight) / 2];
                if (left < inner[0] - 1 || right > inner[1] + 1) pastBox.add(`${name(owner)} in ${name(box)}`);
            }
        }
    }
    for (const hit of [...cut].slice(0, 5)) problems.push(`text cut off without a scroll: ${hit}`);
    for (const hit of [...edgeHits].slice(0, 5)) problems.push(`text touching the screen's edge: ${hit}`);
    for (const hit of [...pastBox].slice(0, 5)) problems.push(`text past its box's padding: ${hit}`);

    // 4. The content starts clear of the header bar.
    const header = document.querySelector(".site-header");
    const main = document.querySelector("main");
    if (header && main) {
        const content = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
        for (let node = content.nextNode(); node; node = content.nextNode()) {
            if (!node.textContent.trim() || !node.parentElement || !shown(node.parentElement) || meantHidden(node.parentElement)) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const first = range.getClientRects()[0];
            if (!first) continue;
            const gap = first.top - header.getBoundingClientRect().bottom;
            if (gap < headerGapPx) problems.push(`content touching the header bar: ${name(node.parentElement)} ${Math.round(gap)} px below it`);
            break;
        }
    }

    // 5. No empty cards: a card shows something besides its heading.
    for (const card of document.querySelectorAll(".card")) {
        if (!shown(card) || meantHidden(card)) continue;
        const body = [...card.querySelectorAll("*")].filter((e) => !/^H[1-6]$/.test(e.tagName) && !e.closest("h1,h2,h3,h4,h5,h6,summary"));
        const hasText = body.some((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) && shown(e));
        const hasGraphic = card.querySelector("svg *, canvas, img, input, select, textarea, button, table td");
        const direct = [...card.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        if (!hasText && !hasGraphic && !direct) problems.push(`empty card: ${name(card)}`);
    }
    return problems;
}
