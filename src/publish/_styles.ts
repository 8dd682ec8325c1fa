// The site's one stylesheet, inlined in each page so a page is one request and works from disk.
// Its sha256 goes into the Content-Security-Policy, so no other inline style (or any script) can run.

export const SITE_CSS = `
:root{color-scheme:light dark;--bg:#f7f7f5;--card:#fff;--text:#1b1b1f;--muted:#55585e;--line:#dcdde0;--link:#0b57b0;
--acc-bg:#dff3e4;--acc:#125c2b;--int-bg:#e3ecfb;--int:#17457f;--adv-bg:#fbe5e1;--adv:#8a2314}
@media (prefers-color-scheme:dark){:root{--bg:#121316;--card:#1c1e22;--text:#e9e9ec;--muted:#a9adb5;--line:#33363c;
--link:#8cb8ff;--acc-bg:#173b22;--acc:#a8e6b8;--int-bg:#1b2d4a;--int:#b7d0ff;--adv-bg:#4a1f18;--adv:#ffc2b5}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:17px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--link)}
a:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.skip{position:absolute;left:-999px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.skip:focus{left:1rem;top:1rem;background:var(--card);padding:.5rem}
.wrap{max-width:46rem;margin:0 auto;padding:1.5rem 1rem 3rem}
.site{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:baseline;justify-content:space-between;
border-bottom:1px solid var(--line);padding-bottom:.75rem;margin-bottom:1.5rem}
.site-name{font-weight:700;font-size:1.05rem;text-decoration:none;color:var(--text)}
.site-name .logo{height:2rem;width:auto;vertical-align:middle;margin-right:.5rem}
.site nav a{margin-left:1rem;font-size:.95rem}
.site nav a:first-child{margin-left:0}
h1{font-size:clamp(1.6rem,5vw,2.3rem);line-height:1.2;margin:0 0 .4rem}
.dateline{color:var(--muted);margin:0 0 1rem}
.intro{font-size:1.08rem;margin:0 0 2rem}
.correction,.superseded{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--link);
border-radius:0 8px 8px 0;padding:.6rem .9rem;margin:0 0 1rem}
.superseded{border-left-color:var(--adv)}
.items{list-style:none;margin:0;padding:0;display:grid;gap:1.5rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1.25rem;overflow-wrap:anywhere}
.card img{display:block;max-width:100%;height:auto;border-radius:8px;margin:0 0 1rem}
.card h2{font-size:1.3rem;line-height:1.3;margin:0 0 .5rem}
.card h2 a{text-decoration:none}
.card h2 a:hover{text-decoration:underline}
.badge{display:inline-block;font-size:.8rem;font-weight:600;border-radius:999px;padding:.1rem .65rem;margin:0 0 .6rem}
.level-accessible{background:var(--acc-bg);color:var(--acc)}
.level-intermediate{background:var(--int-bg);color:var(--int)}
.level-advanced{background:var(--adv-bg);color:var(--adv)}
.authors{color:var(--muted);font-size:.92rem;margin:0 0 .75rem}
.summary{margin:0 0 .75rem}
.card h3{font-size:1rem;margin:0 0 .25rem}
.takeaways{margin:0 0 .75rem;padding-left:1.25rem;list-style:disc}
.takeaways li{margin:.2rem 0}
.takeaways .src{font-size:.8rem;color:var(--muted);text-decoration:none;white-space:nowrap}
.facts{font-size:.9rem;margin:0 0 .5rem}
.meta{color:var(--muted);font-size:.9rem;margin:0;display:flex;flex-wrap:wrap;gap:.25rem .75rem;justify-content:space-between}
.permalink{color:var(--muted)}
.archive{list-style:none;padding:0;margin:0 0 2rem}
.archive li{padding:.5rem 0;border-bottom:1px solid var(--line)}
.archive time{display:inline-block;min-width:8.5rem;color:var(--muted);font-variant-numeric:tabular-nums}
.latest{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1.25rem;margin:0 0 2rem}
.latest h2{margin:.25rem 0 .5rem;font-size:1.5rem;line-height:1.25}
.search-form{display:flex;flex-wrap:wrap;gap:.5rem;margin:0 0 1.5rem}
.choices{flex-basis:100%}.choices fieldset,.preferences fieldset{border:0;padding:0;margin:.5rem 0}
.choices label,.preferences fieldset label{display:inline-block;margin-right:.75rem}
.search-form .choices input{flex:none;padding:0}
.search-form input{flex:1;font:inherit;padding:.5rem .75rem;border:1px solid var(--muted);border-radius:8px;
background:var(--card);color:var(--text)}
.search-form button{font:inherit;padding:.5rem 1rem;border-radius:8px;border:1px solid var(--link);background:var(--link);
color:var(--card)}
footer.site-footer{color:var(--muted);font-size:.9rem;border-top:1px solid var(--line);margin-top:2.5rem;padding-top:1rem}
@media (min-width:900px){.wrap{padding-top:2.5rem}.card{padding:1.5rem 1.75rem}}
@media print{:root{--bg:#fff;--card:#fff;--text:#000;--muted:#333;--line:#bbb;--link:#000}
body{font-size:11pt}.site nav,.skip,.permalink,.search-form,footer.site-footer{display:none}
.card{border:0;border-bottom:1px solid var(--line);border-radius:0;padding:0 0 1rem;break-inside:avoid}
.card img{max-width:8cm}.card h2 a::after{content:" <" attr(href) ">";font-size:.75em;font-weight:400}}
`.trim();
