// The search page's script, served as search.js (the policy allows same-origin script files, never inline ones).
// Plain ES2017 so any browser runs it; results are built with textContent, never innerHTML.

export const SEARCH_SCRIPT = `(function () {
  'use strict';
  var form = document.getElementById('search-form');
  var input = document.getElementById('search-input');
  var status = document.getElementById('search-status');
  var list = document.getElementById('search-results');
  if (!form || !input || !status || !list) return;
  var MAX = 50;
  var fold = function (text) {
    return String(text).normalize('NFKD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase();
  };
  var records = null;
  var load = function () {
    return fetch(form.getAttribute('data-index'), { credentials: 'same-origin' })
      .then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.json();
      })
      .then(function (index) {
        records = index.items.map(function (item) {
          var edition = index.editions[item[0]] || ['', ''];
          return {
            date: edition[0], edition: edition[1], title: item[1], anchor: item[2],
            text: fold([item[1], item[3], item[4], edition[1], edition[0]].join(' '))
          };
        });
      });
  };
  var show = function (query) {
    var terms = fold(query).split(/\\s+/).filter(Boolean);
    while (list.firstChild) list.removeChild(list.firstChild);
    if (!terms.length) { status.textContent = 'Type a word to search every edition.'; return; }
    var hits = records.filter(function (record) {
      return terms.every(function (term) { return record.text.indexOf(term) !== -1; });
    });
    status.textContent = hits.length === 0 ? 'No matches.' :
      (hits.length > MAX ? 'Showing ' + MAX + ' of ' + hits.length + ' matches.' : hits.length + (hits.length === 1 ? ' match.' : ' matches.'));
    hits.slice(0, MAX).forEach(function (record) {
      var item = document.createElement('li');
      var link = document.createElement('a');
      link.href = '../' + record.date + '/index.html#' + record.anchor;
      link.textContent = record.title;
      var meta = document.createElement('span');
      meta.className = 'search-meta';
      meta.textContent = ' — ' + record.edition + ' (' + record.date + ')';
      item.appendChild(link);
      item.appendChild(meta);
      list.appendChild(item);
    });
  };
  var run = function () {
    var query = input.value;
    (records ? Promise.resolve() : load()).then(function () { show(query); }, function () {
      status.textContent = 'The search index could not be loaded.';
    });
  };
  form.addEventListener('submit', function (event) { event.preventDefault(); run(); });
  input.addEventListener('input', run);
  var initial = new URLSearchParams(window.location.search).get('q');
  if (initial) { input.value = initial; }
  run();
})();
`;
