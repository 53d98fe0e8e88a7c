// The console: plain JavaScript over the same HTTP API as every client.
// Everything shown comes from the API and is inserted as text, never HTML.
"use strict";

const state = { token: sessionStorage.getItem("computer-token") || "", ws: "", tab: "approvals",
  approvals: 0, runs: 0, audit: 0, path: "/", run: null, follow: null, diffRun: null };
const PAGE = { approvals: 50, runs: 50, audit: 100 };
const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}
function row(cells) {
  const tr = document.createElement("tr");
  for (const c of cells) { const td = document.createElement("td"); if (c instanceof Node) td.append(c); else td.textContent = c ?? ""; tr.append(td); }
  return tr;
}
function time(ns) { return ns ? new Date(Number(ns) / 1e6).toLocaleString() : ""; }
function status(msg, ok) { const s = $("status"); s.textContent = msg || ""; s.className = ok ? "ok" : "error"; }

async function api(method, path, body) {
  const opts = { method, headers: { Authorization: "Bearer " + state.token } };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  const r = await fetch(path, opts);
  if (r.status === 401) { const why = "That token is not valid (or was revoked)."; logout(why); throw new Error(why); }
  const doc = await r.json().catch(() => ({}));
  if (!r.ok) { const e = doc.error || {}; throw new Error(`${e.code || r.status}: ${e.message || r.statusText}`); }
  return doc;
}
const wsPath = (p) => `/workspaces/${encodeURIComponent(state.ws)}${p}`;
const q = (o) => Object.entries(o).filter(([, v]) => v !== "" && v !== undefined && v !== null).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");

function logout(msg) {
  sessionStorage.removeItem("computer-token"); state.token = "";
  document.querySelectorAll(".tab").forEach((t) => (t.hidden = true));
  $("login-view").hidden = false; $("login-error").textContent = msg || "";
}

async function start() {
  if (!state.token) return logout();
  $("login-view").hidden = true;
  const doc = await api("GET", "/workspaces");
  const sel = $("workspace"); sel.replaceChildren();
  for (const w of doc.workspaces) sel.append(el("option", w.id));
  state.ws = (doc.workspaces.find((w) => w.id === state.ws) || doc.workspaces[0] || {}).id || "";
  sel.value = state.ws;
  show(state.tab);
}

function show(tab) {
  state.tab = tab;
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === tab));
  document.querySelectorAll(".tab").forEach((t) => (t.hidden = t.id !== tab));
  if (!state.ws) return status("No workspace yet: POST /workspaces makes one.");
  status("");
  ({ approvals: loadApprovals, runs: loadRuns, files: loadFiles, changes: loadChanges, audit: loadAudit })[tab]().catch((e) => status(e.message));
}

// Approvals: paged, oldest first; answer with JSON or reject with a reason.
async function loadApprovals() {
  const doc = await api("GET", wsPath(`/approvals?${q({ offset: state.approvals, limit: PAGE.approvals })}`));
  $("approvals-count").textContent = doc.total ? `(${doc.total})` : "";
  const end = Math.min(state.approvals + doc.pending.length, doc.total);
  $("approvals-info").textContent = doc.total ? `${state.approvals + 1}–${end} of ${doc.total}` : "nothing is waiting";
  $("approvals-prev").disabled = state.approvals === 0;
  $("approvals-next").disabled = end >= doc.total;
  const rows = $("approvals-rows"); rows.replaceChildren();
  for (const p of doc.pending) {
    let payload = p.payload; try { payload = JSON.stringify(JSON.parse(p.payload), null, 2); } catch (_) { /* shown as it is */ }
    const answer = el("input"); answer.value = '{"approved": true}'; answer.className = "answer"; answer.size = 18;
    const reason = el("input"); reason.placeholder = "reason"; reason.className = "reason"; reason.size = 14;
    const ok = el("button", "Approve", "approve"); const no = el("button", "Reject", "reject");
    const box = el("div"); box.append(answer, ok, reason, no);
    const send = async (body) => {
      try {
        const r = await api("POST", wsPath("/approvals/respond"), { run_id: p.run_id, call_id: p.call_id, ...body });
        status(`${p.call_id}: answered${r.resumed ? "; the run resumed" : ""}`, true);
        await loadApprovals();
      } catch (e) { status(e.message); }
    };
    ok.onclick = () => { let v; try { v = JSON.parse(answer.value); } catch (e) { return status("the answer is not JSON: " + e.message); } send({ answer: v }); };
    no.onclick = () => { if (!reason.value.trim()) return status("give a reason to reject"); send({ reject: reason.value }); };
    const tr = row([p.run_id, p.call_id, `ws:${p.module}.${p.function}`, el("pre", payload), time(p.created_ns), box]);
    tr.className = "approval"; rows.append(tr);
  }
}

// Runs: newest first; a run's output followed live over server-sent events.
async function loadRuns() {
  const doc = await api("GET", wsPath(`/runs?${q({ offset: state.runs, limit: PAGE.runs })}`));
  $("runs-info").textContent = doc.runs.length ? `${state.runs + 1}–${state.runs + doc.runs.length}` : "no runs";
  $("runs-prev").disabled = state.runs === 0; $("runs-next").disabled = doc.runs.length < PAGE.runs;
  const rows = $("runs-rows"); rows.replaceChildren();
  for (const r of doc.runs) {
    const tr = row([r.id, el("span", r.live ? "running (live)" : r.status, "status-" + r.status), r.backend, r.exit_code ?? "", time(r.started_ns)]);
    tr.className = "run"; tr.dataset.id = r.id; tr.onclick = () => openRun(r.id); rows.append(tr);
  }
}

async function openRun(id) {
  if (state.follow) state.follow.abort();
  state.run = id;
  const r = await api("GET", wsPath(`/runs/${encodeURIComponent(id)}`));
  $("run-title").textContent = `${r.id} · ${r.backend} · ${r.status}`;
  $("run-source").textContent = r.source;
  $("run-cancel").hidden = !r.live; $("run-diff").hidden = false;
  const out = $("run-output"); out.textContent = "";
  $("run-live").textContent = r.live ? "(live)" : "";
  const ctl = new AbortController(); state.follow = ctl;
  try {
    const resp = await fetch(wsPath(`/runs/${encodeURIComponent(id)}/events`), { headers: { Authorization: "Bearer " + state.token }, signal: ctl.signal });
    const reader = resp.body.getReader(); const dec = new TextDecoder(); let buf = "";
    for (;;) {
      const { value, done } = await reader.read(); if (done) break;
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i); buf = buf.slice(i + 2);
        let name = "message", data = "";
        for (const line of block.split("\n")) { if (line.startsWith("event:")) name = line.slice(6).trim(); else if (line.startsWith("data:")) data += line.slice(5).trimStart(); }
        if (!data) continue;
        const v = JSON.parse(data);
        if (name === "stdout" || name === "stderr") out.textContent += v.data;
        if (name === "result") { $("run-live").textContent = `(${v.status}, exit ${v.exit_code})`; $("run-cancel").hidden = true; }
      }
    }
  } catch (e) { if (e.name !== "AbortError") status(e.message); }
}

// Files: a directory listing; a file's text beside it.
async function loadFiles() {
  $("files-path").textContent = state.path;
  const doc = await api("GET", wsPath(`/files/ls?${q({ path: state.path })}`));
  const rows = $("files-rows"); rows.replaceChildren();
  for (const e of doc.entries) {
    const full = (state.path.endsWith("/") ? state.path : state.path + "/") + e.name;
    const tr = row([e.kind === "directory" ? e.name + "/" : e.name, e.kind, e.size, time(e.mtime_ns)]);
    tr.className = "entry";
    tr.onclick = async () => {
      if (e.kind === "directory") { state.path = full; return loadFiles().catch((x) => status(x.message)); }
      try { const f = await api("GET", wsPath(`/files/read?${q({ path: full, length: 1 << 20 })}`)); $("file-content").textContent = f.content ?? `(binary, ${f.size} bytes)`; } catch (x) { status(x.message); }
    };
    rows.append(tr);
  }
}

// Changes: a diff between two trees; a run's can be undone.
async function loadChanges() {
  const [snaps, forks] = await Promise.all([api("GET", wsPath("/snapshots")), api("GET", wsPath("/forks"))]);
  const names = (list, prefix) => { const span = el("span"); for (const s of list) { const a = el("button", s.name); a.onclick = () => { $("diff-from").value = prefix + s.name; state.diffRun = null; diff(); }; span.append(a, " "); } return span; };
  $("snapshots").replaceChildren(snaps.snapshots.length ? names(snaps.snapshots, "") : "none");
  $("forks").replaceChildren(forks.forks.length ? names(forks.forks, "fork:") : "none");
  if ($("diff-from").value) await diff();
}

async function diff() {
  const from = $("diff-from").value.trim(), to = $("diff-to").value.trim() || "live";
  const doc = state.diffRun ? await api("GET", wsPath(`/runs/${encodeURIComponent(state.diffRun)}/diff?patch=true`))
    : await api("GET", wsPath(`/diff?${q({ from, to, patch: true })}`));
  $("diff-undo").hidden = !state.diffRun;
  $("diff-summary").textContent = `${doc.files.length} changed file(s) from ${doc.from} to ${doc.to}`;
  const box = $("diff-files"); box.replaceChildren();
  for (const f of doc.files) {
    const d = el("div", undefined, "diff-file"); d.append(el("h4", `${f.status}: ${f.old_path ? f.old_path + " → " : ""}${f.path}`));
    const pre = el("pre");
    for (const line of (f.patch || (f.binary ? "(binary)" : "")).split("\n")) {
      const cls = line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : line.startsWith("@@") ? "hunk" : undefined;
      pre.append(el("span", line + "\n", cls));
    }
    d.append(pre); box.append(d);
  }
}

// Audit: filters, newest first, paged by offset.
async function loadAudit() {
  const ns = (id) => { const v = $(id).value; return v ? String(BigInt(new Date(v).getTime()) * 1000000n) : ""; };
  const doc = await api("GET", wsPath(`/audit?${q({ actor: $("audit-actor").value, operation: $("audit-operation").value, path: $("audit-path").value,
    since_ns: ns("audit-since"), until_ns: ns("audit-until"), offset: state.audit, limit: PAGE.audit })}`));
  $("audit-info").textContent = doc.audit.length ? `rows ${state.audit + 1}–${state.audit + doc.audit.length}` : "no rows";
  $("audit-prev").disabled = state.audit === 0; $("audit-next").disabled = doc.next_offset === null;
  const rows = $("audit-rows"); rows.replaceChildren();
  for (const r of doc.audit) {
    const tr = row([time(r.time_ns), r.actor, r.operation, r.target, r.error ? `${r.outcome}: ${r.error}` : r.outcome, (r.duration_ns / 1e6).toFixed(2)]);
    tr.className = "audit-row"; rows.append(tr);
  }
}

$("login").onsubmit = (e) => { e.preventDefault(); state.token = $("token").value.trim(); sessionStorage.setItem("computer-token", state.token); start().catch((x) => ($("login-error").textContent = x.message)); };
$("logout").onclick = () => logout();
$("workspace").onchange = (e) => { state.ws = e.target.value; state.approvals = state.runs = state.audit = 0; state.path = "/"; show(state.tab); };
document.querySelectorAll("#tabs button").forEach((b) => (b.onclick = () => show(b.dataset.tab)));
const pager = (name, load) => {
  $(`${name}-prev`).onclick = () => { state[name] = Math.max(0, state[name] - PAGE[name]); load().catch((e) => status(e.message)); };
  $(`${name}-next`).onclick = () => { state[name] += PAGE[name]; load().catch((e) => status(e.message)); };
};
pager("approvals", loadApprovals); pager("runs", loadRuns); pager("audit", loadAudit);
$("approvals-refresh").onclick = () => loadApprovals().catch((e) => status(e.message));
$("runs-refresh").onclick = () => loadRuns().catch((e) => status(e.message));
$("files-up").onclick = () => { state.path = state.path.replace(/\/[^/]*\/?$/, "") || "/"; loadFiles().catch((e) => status(e.message)); };
$("run-cancel").onclick = async () => { try { await api("POST", wsPath(`/runs/${encodeURIComponent(state.run)}/cancel`)); status("cancelled", true); } catch (e) { status(e.message); } };
$("run-diff").onclick = () => { state.diffRun = state.run; $("diff-from").value = `run:${state.run}:before`; $("diff-to").value = `run:${state.run}:after`; show("changes"); };
$("diff-form").onsubmit = (e) => { e.preventDefault(); state.diffRun = null; diff().catch((x) => status(x.message)); };
$("diff-undo").onclick = async () => { try { const r = await api("POST", wsPath(`/runs/${encodeURIComponent(state.diffRun)}/undo`), {}); status(`undone: ${r.reverted.join(", ") || "nothing"}`, true); } catch (e) { status(e.message); } };
$("audit-form").onsubmit = (e) => { e.preventDefault(); state.audit = 0; loadAudit().catch((x) => status(x.message)); };
start().catch((e) => status(e.message));
