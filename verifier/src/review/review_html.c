/* review_html.c - see review_html.h. */
#include "review_html.h"

#include <string.h>

static const struct review_style styles[LG_KIND_COUNT] = {
	[LG_CODE] = {"code", "code", "a code block: a snippet of the program, a transcript excerpt, the build line or a quote"},
	[LG_FACT] = {"fact", "measured", "a fact of a measured paragraph (GPU, date, driver, CUDA, flags)"},
	[LG_TRACED] = {"traced", "traced", "a number found in the evidence"},
	[LG_DERIVED] = {"derived", "derived", "a number computed from evidence numbers (<!-- = EXPR -->)"},
	[LG_CITED] = {"cited", "cited", "a number from another lesson's evidence (<!-- cite: LESSON -->)"},
	[LG_EXT] = {"ext", "external", "a number from outside the course, with its reason (<!-- ext: -->)"},
	[LG_ROW] = {"row", "table row", "a table row resting on one transcript line"},
	[LG_SKIPPED] = {"skipped", "skipped", "a number not checked, and why (a year, a small whole number)"},
	[LG_FAILED] = {"failed", "FAILED", "a claim that did not hold: the diagnostic says why"},
	[LG_CLAIM] = {"claim", "claim", "a sentence's claim checked against the evidence (<!-- claim: -->), its places and values"},
	[LG_AMBIGUOUS] = {"ambiguous", "ambiguous",
			  "a number the evidence holds at several places and nothing settles which: check the one the "
			  "sentence means, or bind it (<!-- at: [ROW | COLUMN] -->)"},
};

const struct review_style *review_style_of(enum ledger_kind kind)
{
	return kind < LG_KIND_COUNT && styles[kind].cls ? &styles[kind] : &styles[LG_FAILED];
}

const char *review_item_word(const struct ledger_entry *e)
{
	if (e->kind == LG_CODE && (strcmp(e->claim, "transcript") == 0 || strcmp(e->claim, "build") == 0 ||
				   strcmp(e->claim, "quote") == 0))
		return e->claim;
	if (e->kind == LG_CODE)
		return "snippet";
	return review_style_of(e->kind)->word;
}

void review_esc(struct buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': buf_puts(b, "&amp;"); break;
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		case '\'': buf_puts(b, "&#39;"); break;
		case '\0': buf_puts(b, "\xEF\xBF\xBD"); break;
		default: buf_putc(b, s[i]); break;
		}
	}
}

void review_escs(struct buf *b, const char *s)
{
	if (s)
		review_esc(b, s, strlen(s));
}


static const char css[] =
	":root{--fg:#1a1a1a;--bg:#fff;--muted:#5a5a5a;--line:#c8c8c8}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:1rem/1.55 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);background:var(--bg)}\n"
	".top,.foot{padding:1rem 1.5rem;border-bottom:1px solid var(--line)}\n"
	".wrap{padding:0 1.5rem}#pane{display:none}\n"
	/* the evidence pane needs the script; without it the tables show the pairs */
	".js .wrap{display:grid;grid-template-columns:minmax(0,1fr) minmax(18rem,42%);gap:1.5rem}.js #pane{display:block}\n"
	".main{min-width:0;max-width:52rem}\n"
	"#pane{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;padding:1rem;"
	"border-left:3px solid var(--line);background:#fafafa}\n"
	"@media (max-width:60rem){.js .wrap{display:block;padding:0 1rem}#pane{position:sticky;bottom:0;max-height:45vh;"
	"border-left:0;border-top:3px solid var(--line);box-shadow:0 -2px 6px rgba(0,0,0,.15)}"
	"table.pairs{display:block;overflow-x:auto}}\n"
	"pre{overflow-x:auto;background:#f4f4f4;padding:.5rem;border:1px solid #ddd}\n"
	"code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.92em}\n"
	"dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem .8rem;margin:.3rem 0}\n"
	"dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}\n"
	".verdict{font-size:1.1rem;padding:.5rem .8rem;border:2px solid;display:inline-block}\n"
	".verdict.pass{border-color:#1b6e2a;background:#e8f5ea}.verdict.fail{border-color:#a4161a;background:#fbe9e9}\n"
	".counts{display:flex;flex-wrap:wrap;gap:.3rem 1rem;padding:0;list-style:none}\n"
	".sw{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:-.1em;border:1px solid #333}\n"
	/* one colour and one pattern per kind: colour is never the only sign */
	".item{color:inherit;text-decoration:none;padding:0 .1em;border-bottom:2px solid}\n"
	".k-traced{background:#dff3e3;border-color:#1b6e2a}.sw.k-traced{background:#1b6e2a}\n"
	".k-derived{background:#e0ebfa;border-bottom-style:double!important;border-bottom-width:4px!important;"
	"border-color:#1d4f91}.sw.k-derived{background:#1d4f91}\n"
	".k-cited{background:#efe4f7;border-bottom-style:dashed!important;border-color:#6a2c91}.sw.k-cited{background:#6a2c91}\n"
	".k-ext{background:#fbecd9;border-bottom-style:dotted!important;border-bottom-width:3px!important;"
	"border-color:#8a4b00}.sw.k-ext{background:#8a4b00}\n"
	".k-fact{background:#dcf1f1;border:1px solid #0e6464}.sw.k-fact{background:#0e6464}\n"
	".k-code{background:#ececec;border-color:#333}.sw.k-code{background:#333}\n"
	".k-row{background:#e6f0e0;border-color:#44622b}.sw.k-row{background:#44622b}\n"
	".k-claim{background:#fff6c8;border-left:4px solid #7a6400;border-bottom:0}.sw.k-claim{background:#7a6400}\n"
	".k-skipped{background:none;color:var(--muted);border-bottom:1px dotted #aaa;opacity:.75}"
	".sw.k-skipped{background:#fff}\n"
	".k-failed{background:#fbe3e3;border-bottom:0;text-decoration:underline wavy #a4161a;"
	"text-decoration-thickness:2px}.sw.k-failed{background:#a4161a}\n"
	"a.item.k-failed::before,span.item.k-failed::before{content:'\\2717\\00a0';font-weight:700;color:#a4161a}\n"
	""
	".k-ambiguous{background:#dff3e3;border-color:#1b6e2a;border-bottom-style:dashed!important}"
	".sw.k-ambiguous{background:#9ccfa6}\n"
	".item.k-ambiguous::after{content:'?';font-size:.7em;vertical-align:super;font-weight:700;color:#1b6e2a}\n"
	".item:hover,.item:focus,.badge:focus{outline:2px solid #000;outline-offset:1px}\n"
	".item.sel,.badge.sel{outline:3px solid #000}\n"
	".badge{display:inline-block;font-size:.82em;padding:0 .4em;margin:.1em 0;border:1px solid #333;"
	"border-radius:3px;color:inherit;text-decoration:none}\n"
	".badges{margin:.6rem 0 .2rem}\n"
	"table.pairs{width:100%;border-collapse:collapse;font-size:.86em;margin:.4rem 0 1.2rem}\n"
	"table.pairs caption{text-align:left;font-weight:600;color:var(--muted)}\n"
	"table.pairs th,table.pairs td{border:1px solid var(--line);padding:.25rem .4rem;vertical-align:top;text-align:left}\n"
	"table.pairs pre{margin:.2rem 0;font-size:.95em}#pane pre{font-size:.8em;position:relative}#pane h2{font-size:1.15rem;margin:0 0 .3rem}#pane h3{margin:.2rem 0}\n"
	"tr:target{outline:3px solid #000}\n"
	".evline .ln{display:inline-block;min-width:3.5ch;color:var(--muted);user-select:none;margin-right:1ch;text-align:right}\n"
	"strong.tok{background:#ffe066;outline:1px solid #7a6400;font-weight:700}\n"
	".diag{border-left:4px solid #a4161a;padding:.2rem .6rem;margin:.4rem 0;background:#fff7f7}\n"
	".diag.warn{border-left-color:#8a4b00;background:#fffaf0}\n"
	".diagtext{font-size:.85em}.hint .lbl{font-weight:700}\n"
	".vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}\n"
	".js table.pairs{display:none}.js.tables table.pairs{display:table}\n"
	".js-only{display:none}.js .js-only{display:inline}\n"
	"body:has(#hide-skipped:checked) .item.k-skipped{background:none;border:0;color:inherit;opacity:1}\n"
	"body:has(#hide-skipped:checked) tr.kind-skipped,body:has(#hide-skipped:checked) .badge.k-skipped{display:none}\n"
	".legend ul{padding-left:1.2rem}.legend li{margin:.15rem 0}\n"
	/* folded header parts, the bar, permalinks, search hits, findings */
	"details>summary{cursor:pointer}summary h2{display:inline;font-size:1.05rem;margin:.3rem 0}\n"
	".js-block{display:none}.js .js-block{display:block}\n"
	"#bar{position:sticky;top:0;z-index:2;background:#f0f0f0;border-bottom:1px solid var(--line);padding:.4rem 1.5rem;"
	"font-size:.9em}#bar .keys{color:var(--muted);margin-left:.6rem}#bar input{width:16rem}\n"
	"kbd{border:1px solid #999;border-radius:3px;padding:0 .25em;font-size:.85em;background:#fff}\n"
	"#approve-box{margin-top:.3rem}#approve-box p{margin:.2rem 0}#approve-cmd{margin:.2rem 0;white-space:pre-wrap}\n"
	".item.hit,.badge.hit{outline:2px dashed #7a6400;outline-offset:2px}\n"
	".item.chosen,.badge.chosen{box-shadow:0 0 0 2px #1d4f91}\n"
	".blk.lsel{box-shadow:-8px 0 0 #e0b400}a.ln{text-decoration:none}a.ln.lsel{background:#ffe066;color:#000;font-weight:700}\n"
	"code.annot{color:#444;background:#f6f6f6;border:1px dashed #aaa;padding:0 .2em;font-size:.82em}"
	".annot-blk{margin:.2rem 0}\n"
	"a.file{font-size:.85em;margin-left:.4em}.at a{color:inherit}\n"
	/* a diff: whole lines coloured, the changed characters marked (and
	 * struck or underlined, so that colour is not the only sign) */
	"pre.diff{padding:.3rem 0}pre.diff .dl{display:inline-block;min-width:100%;padding:0 .5rem}.dl-del{background:#fbe9e9}.dl-add{background:#e8f5ea}"
	".dl-hunk{color:#1d4f91}.dl-file{color:var(--muted);font-weight:700}\n"
	"pre.diff del{background:#f2a7a7;text-decoration:line-through}pre.diff ins{background:#92d39e;text-decoration:underline}\n"
	/* approvals: the state the sign-off records, and the approve control */
	".appr{border-left:4px solid #1b6e2a;background:#f0f8f1;padding:.2rem .6rem;margin:.3rem 0}"
	".appr.appr-reopened{border-left-color:#a4161a;background:#fff4f4}\n"
	".appr-badge{font-weight:700;padding:0 .35em;border-radius:3px;color:#fff;background:#1b6e2a}"
	".appr-reopened .appr-badge{background:#a4161a}\n"
	"table.was{border-collapse:collapse;margin:.2rem 0}table.was th,table.was td{padding:.1rem .4rem;text-align:left;"
	"border:1px solid var(--line)}table.was del{background:#fbe3e3}table.was ins{background:#dff3e3;text-decoration:none}\n"
	".item.appr-approved::after,.badge.appr-approved::after{content:'\\2713';font-size:.75em;color:#1b6e2a;margin-left:.1em}\n"
	".item.appr-reopened::after,.badge.appr-reopened::after{content:'\\21BB reopened';font-size:.7em;color:#a4161a;"
	"margin-left:.2em;font-weight:700}\n"
	"button.approve[aria-pressed=true]{background:#1d4f91;color:#fff}\n"
	"@media print{.js #pane,#pane,.ctl,#bar{display:none}.js .wrap,.wrap{display:block}"
	".js table.pairs,table.pairs{display:table!important}"
	"pre{white-space:pre-wrap}a{color:inherit}.item,.badge{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	"tr,.diag{break-inside:avoid}}\n";

static const char js[] =
	"(function(){var d=document,root=d.documentElement;root.classList.add('js');\n"
	"var body=d.getElementById('pane-body'),sel=null,cur=-1,chosen=[];\n"
	"function row(i){return d.getElementById('r'+i);}\n"
	"function mark(i){return d.getElementById('i'+i);}\n"
	"function show(i){var r=row(i);if(!r)return false;var c=r.cells;body.textContent='';cur=+i;\n"
	"var h=d.createElement('h3');h.textContent=c[0].textContent+': '+c[1].querySelector('a').textContent;body.appendChild(h);\n"
	"var at=d.createElement('p');at.className='at';var l=r.getAttribute('data-at');\n"
	"var la=d.createElement('a');la.href='#L'+l.split(':')[0];la.textContent='page line '+l;at.appendChild(la);\n"
	"at.appendChild(d.createTextNode(' \\u00b7 '));var pa=d.createElement('a');pa.href='#i'+i;pa.className='perma';\n"
	"pa.textContent='permalink #i'+i;at.appendChild(pa);at.appendChild(d.createTextNode(' \\u00b7 id '));\n"
	"var ic=d.createElement('code');ic.textContent=r.getAttribute('data-id');at.appendChild(ic);body.appendChild(at);\n"
	"var s=d.createElement('p');s.className='src';s.textContent='checked against: '+c[2].textContent;body.appendChild(s);\n"
	"var ev=d.createElement('div');ev.className='evidence';ev.innerHTML=c[3].innerHTML;body.appendChild(ev);\n"
	"var tok=ev.querySelector('strong.tok');if(tok){var pre=tok.parentNode;pre.scrollLeft=Math.max(0,tok.offsetLeft-pre.clientWidth/2);}\n"
	"var pane=d.getElementById('pane'),df=ev.querySelector('pre.diff');if(pane)pane.scrollTop=df?Math.max(0,df.offsetTop-pane.clientHeight/3):0;\n"
	"if(sel)sel.classList.remove('sel');sel=mark(i);if(sel)sel.classList.add('sel');sync();return true;}\n"
	"function reveal(i,focus){var m=mark(i);if(!m)return;m.scrollIntoView({block:'center'});if(focus)m.focus({preventScroll:true});}\n"
	"function open(i,keep){if(show(i)){reveal(i,true);if(!keep&&location.hash!=='#i'+i)history.replaceState(null,'','#i'+i);}}\n"
	"function idx(el){return +el.getAttribute('data-i');}\n"
	"function step(list,dir){if(!list.length)return;var k=-1,i;\n"
	"for(i=0;i<list.length;i++){if(idx(list[i])===cur){k=i;break;}}\n"
	"if(k<0){var m=mark(cur);k=dir>0?-1:list.length;if(m){for(i=0;i<list.length;i++){\n"
	"if(m.compareDocumentPosition(list[i])&Node.DOCUMENT_POSITION_FOLLOWING){k=dir>0?i-1:i;break;}}}}\n"
	"k=(k+dir+list.length)%list.length;open(idx(list[k]));return k;}\n"
	"var findings=d.querySelectorAll('.main .finding[data-i]'),fn=d.getElementById('f-n');\n"
	"function fstep(dir){var k=step(findings,dir);if(fn&&k!==undefined)fn.textContent='finding '+(k+1)+' of '+findings.length;}\n"
	"if(fn)fn.textContent=findings.length?findings.length+' finding'+(findings.length===1?'':'s'):'no findings';\n"
	"function route(h){var m;if(!h||h==='#')return;var lsel=d.querySelectorAll('.lsel');for(var q=0;q<lsel.length;q++)lsel[q].classList.remove('lsel');\n"
	"if((m=/^#[ir](\\d+)$/.exec(h))){open(m[1],true);return;}\n"
	"if((m=/^#L(\\d+)$/.exec(h))){var n=+m[1],blks=d.querySelectorAll('.blk[data-lines]'),b=null;\n"
	"for(var k=0;k<blks.length;k++){var p=blks[k].getAttribute('data-lines').split('-');if(+p[0]<=n&&n<=+p[1]){b=blks[k];break;}}\n"
	"var rs=d.querySelectorAll('tr[data-at^=\"'+n+':\"]'),pick=null;for(k=0;k<rs.length;k++){if(mark(rs[k].getAttribute('data-i'))){pick=rs[k];break;}}\n"
	"if(b)b.classList.add('lsel');if(pick){show(pick.getAttribute('data-i'));}\n"
	"var t=pick?mark(pick.getAttribute('data-i')):b;if(t)t.scrollIntoView({block:'center'});return;}\n"
	"if((m=/^#d(\\d+)$/.exec(h))){var f=d.getElementById('found');if(f)f.open=true;var g=d.getElementById('d'+m[1]);if(g)g.scrollIntoView();return;}\n"
	"var lns=d.querySelectorAll('.main tr[data-i] a.ln');for(var j=0;j<lns.length;j++){if(lns[j].getAttribute('href')===h){\n"
	"var r=lns[j].closest('tr[data-i]');open(r.getAttribute('data-i'),true);var pl=body.querySelectorAll('a.ln');\n"
	"for(var z=0;z<pl.length;z++){if(pl[z].getAttribute('href')===h){pl[z].classList.add('lsel');pl[z].scrollIntoView({block:'nearest'});break;}}return;}}}\n"
	"function pick(t){return t&&t.closest?t.closest('.main .item[data-i], .main .badge[data-i]'):null;}\n"
	"function quote(s){return /^[A-Za-z0-9\\/._:-]+$/.test(s)?s:\"'\"+s.replace(/'/g,\"'\\\\''\")+\"'\";}\n"
	"var box=d.getElementById('approve-box'),cmd=d.getElementById('approve-cmd');\n"
	"function sync(){var b=d.querySelectorAll('button.approve');for(var k=0;k<b.length;k++){var on=chosen.indexOf(b[k].getAttribute('data-id'))>=0;\n"
	"b[k].setAttribute('aria-pressed',on?'true':'false');if(!b[k].getAttribute('data-label'))b[k].setAttribute('data-label',b[k].textContent);\n"
	"b[k].textContent=on?'\\u2713 chosen to approve (undo)':b[k].getAttribute('data-label');}\n"
	"var ms=d.querySelectorAll('.main [data-id]');for(k=0;k<ms.length;k++)ms[k].classList.toggle('chosen',chosen.indexOf(ms[k].getAttribute('data-id'))>=0);\n"
	"if(!box)return;box.hidden=!chosen.length;d.getElementById('approve-n').textContent=chosen.length;\n"
	"cmd.textContent='coursecheck approve '+quote(cmd.getAttribute('data-page'))+chosen.map(function(x){return ' --item '+x;}).join('');}\n"
	"function choose(id){var k=chosen.indexOf(id);if(k>=0)chosen.splice(k,1);else chosen.push(id);sync();}\n"
	"d.addEventListener('click',function(e){var t=e.target;var ap=t.closest&&t.closest('button.approve');\n"
	"if(ap){e.preventDefault();choose(ap.getAttribute('data-id'));return;}\n"
	"var it=pick(t);if(it){e.preventDefault();open(it.getAttribute('data-i'));return;}\n"
	"var a=t.closest&&t.closest('a[href^=\"#\"]');if(a){e.preventDefault();var h=a.getAttribute('href');history.pushState(null,'',h);route(h);}});\n"
	"var sb=d.getElementById('search'),sn=d.getElementById('search-n'),hits=[];\n"
	"function search(){var q=sb.value.trim().toLowerCase(),rs=d.querySelectorAll('.main tr[data-i]'),old=d.querySelectorAll('.main .hit');hits=[];\n"
	"for(var k=0;k<old.length;k++)old[k].classList.remove('hit');\n"
	"if(q){for(k=0;k<rs.length;k++){var m=mark(rs[k].getAttribute('data-i'));\n"
	"if(m&&(rs[k].textContent+' '+m.textContent).toLowerCase().indexOf(q)>=0){m.classList.add('hit');}}\n"
	"hits=d.querySelectorAll('.main .hit[data-i]');}\n"
	"sn.textContent=q?hits.length+' match'+(hits.length===1?'':'es')+(hits.length?' (Enter: next)':''):'';}\n"
	"if(sb){sb.addEventListener('input',search);sb.addEventListener('keydown',function(e){\n"
	"if(e.key==='Enter'){e.preventDefault();step(hits,e.shiftKey?-1:1);}else if(e.key==='Escape'){sb.value='';search();sb.blur();}});}\n"
	"d.getElementById('next-f').addEventListener('click',function(){fstep(1);});\n"
	"d.getElementById('prev-f').addEventListener('click',function(){fstep(-1);});\n"
	"d.addEventListener('keydown',function(e){var t=e.target,tag=t&&t.tagName;\n"
	"if(e.ctrlKey||e.metaKey||e.altKey||tag==='INPUT'||tag==='TEXTAREA'||tag==='SELECT')return;\n"
	"if(e.key==='j'||e.key==='n'){e.preventDefault();fstep(1);return;}\n"
	"if(e.key==='k'||e.key==='p'){e.preventDefault();fstep(-1);return;}\n"
	"if(e.key==='/'){e.preventDefault();if(sb)sb.focus();return;}\n"
	"if(e.key==='a'&&cur>=0){var r=row(cur),b=r&&r.querySelector('button.approve');if(b){e.preventDefault();choose(b.getAttribute('data-id'));}return;}\n"
	"if(e.key!=='Enter'&&e.key!==' ')return;var it=pick(t);if(!it)return;e.preventDefault();open(it.getAttribute('data-i'));});\n"
	"d.getElementById('approve-clear').addEventListener('click',function(){chosen=[];sync();});\n"
	"d.getElementById('approve-copy').addEventListener('click',function(){var out=d.getElementById('approve-copied');\n"
	"function fallback(){var r=d.createRange();r.selectNodeContents(cmd);var s=window.getSelection();s.removeAllRanges();s.addRange(r);\n"
	"var ok=false;try{ok=d.execCommand('copy');}catch(x){}out.textContent=ok?'copied':'selected: copy it with Ctrl+C';}\n"
	"if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(cmd.textContent).then(function(){out.textContent='copied';},fallback);}else fallback();});\n"
	"var st=d.getElementById('show-tables');if(st)st.addEventListener('change',function(){root.classList.toggle('tables',st.checked);});\n"
	"window.addEventListener('hashchange',function(){route(location.hash);});\n"
	"route(location.hash);})();\n";

void review_put_head(struct buf *b, const char *title)
{
	buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
		    "script-src 'unsafe-inline'\">\n<title>");
	review_escs(b, title);
	buf_printf(b, "</title>\n<style>\n%s</style>\n</head>\n", css);
}


const char *review_script(void)
{
	return js;
}
