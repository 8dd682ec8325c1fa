// The desk's two static files, served same-origin (the site's policy allows 'self' only): the stylesheet and a small
// script that adds drag-to-reorder on top of the Up/Down buttons, which work without it.

export const DESK_CSS = `
:root{color-scheme:light dark;--bg:#f7f7f5;--card:#fff;--text:#1b1b1f;--muted:#50535a;--line:#c9cbd0;--link:#0b57b0;--warn:#8a2314}
@media (prefers-color-scheme:dark){:root{--bg:#121316;--card:#1c1e22;--text:#e9e9ec;--muted:#b4b8bf;--line:#3b3e44;--link:#8cb8ff;--warn:#ffb4a6}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--link)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--card);padding:.5rem}
.desk-header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between;padding:.75rem 1rem;border-bottom:1px solid var(--line);background:var(--card)}
.desk-name{font-weight:700}
.desk-header nav a{margin-right:1rem}
main{padding:1rem;max-width:90rem;margin:0 auto}
.panel{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem;margin:0 0 1rem}
.inline{display:inline}
.notice{border-left:4px solid var(--link);padding:.5rem .75rem;background:var(--card)}
.message{border-left:4px solid var(--warn);padding:.5rem .75rem;background:var(--card)}
.conflict{border:2px solid var(--warn);padding:1rem;border-radius:8px;margin:0 0 1rem}
.hint,.item-key,.status{color:var(--muted);font-size:.9em}
.item-key{overflow-wrap:anywhere}
.edition-items{padding-left:0;list-style:none}
.edition-item{border-top:1px solid var(--line);padding:.5rem 0}
.edition-item.dragging{opacity:.5}
.tag{font-size:.8em;border:1px solid var(--line);border-radius:4px;padding:0 .3rem}
.tag.flag{border-color:var(--warn);color:var(--warn)}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid var(--line);padding:.35rem;text-align:left;vertical-align:top}
tr.chosen{background:rgba(11,87,176,.08)}
caption{text-align:left;color:var(--muted)}
.readers th,.readers td{overflow-wrap:anywhere}
.table-scroll{overflow-x:auto;max-width:100%}
.signals{display:grid;grid-template-columns:auto auto;gap:0 .75rem;margin:0}
.signals dd{margin:0}
del{background:rgba(200,40,20,.18)}ins{background:rgba(20,140,60,.18);text-decoration:underline}
blockquote{margin:.25rem 0 .25rem 1rem;padding-left:.75rem;border-left:3px solid var(--line)}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
textarea,input[type=text],input[type=search],input[type=email],input[type=password]{max-width:100%;font:inherit}
button{font:inherit;cursor:pointer}
`;

export const DESK_JS = `'use strict';
// Drag to reorder the draft's items: on drop, the new order is posted through the same form the buttons use.
(function () {
  var list = document.getElementById('edition-items');
  var form = document.getElementById('order-form');
  if (!list || !form) return;
  var dragged = null;
  Array.prototype.forEach.call(list.children, function (item) {
    item.setAttribute('draggable', 'true');
    item.addEventListener('dragstart', function () { dragged = item; item.classList.add('dragging'); });
    item.addEventListener('dragend', function () { item.classList.remove('dragging'); });
    item.addEventListener('dragover', function (event) { event.preventDefault(); });
    item.addEventListener('drop', function (event) {
      event.preventDefault();
      if (!dragged || dragged === item) return;
      var box = item.getBoundingClientRect();
      list.insertBefore(dragged, event.clientY > box.top + box.height / 2 ? item.nextSibling : item);
      var keys = Array.prototype.map.call(list.children, function (entry) { return entry.getAttribute('data-key'); });
      form.elements.namedItem('order').value = keys.join('\\n');
      form.submit();
    });
  });
})();
`;
