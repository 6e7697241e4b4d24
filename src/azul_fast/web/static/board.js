// The analysis board's page. The page keeps the line of play (each position's text and the move
// played from it); the server draws a position, checks and plays moves, and runs the engine's
// jobs (one at a time), which the page polls while they run.
'use strict';

const $ = (id) => document.getElementById(id);
const initial = JSON.parse($('initial').textContent);
const LETTERS = {blue: 'B', yellow: 'Y', red: 'R', black: 'K', white: 'W'};

const board = {
  texts: [],       // the positions of the line, as State.to_text(rng=True)
  moves: [],       // moves[i] is played in texts[i] and gives texts[i + 1]
  at: 0,           // the position shown
  view: null,      // the server's view of texts[at]
  shownBest: null, // the engine's best move drawn on the diagram
  pick: null,      // the source and colour clicked, waiting for a line
  game: null,      // the loaded game, for a review: {request, texts, moves}
  job: null,       // the engine's latest job status
  review: null,    // the latest review job's status
  simulating: null, // the simulated game asked for: {id, request, label}
  polling: false,
};

// -- talking to the server ----------------------------------------------------------------------

async function api(name, body) {
  const options = body === undefined ? {} : {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)};
  let response;
  try {
    response = await fetch('/api/' + name, options);
  } catch (error) {
    throw new Error('the board server does not answer (is azul-fast board still running?)');
  }
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(message) {
  $('error-text').textContent = message;
  $('error').hidden = false;
}

function clearError() {
  $('error').hidden = true;
}

// Run an action; a refusal (bad input, illegal move) is shown on the page.
async function attempt(action) {
  try {
    await action();
  } catch (error) {
    showError(error.message);
  }
}

// -- the position -------------------------------------------------------------------------------

function statusLine(view) {
  const scores = view.scores.join(' – ');
  if (view.over) return `Game over after round ${view.round} · won by player ${view.winners.join(' and ')} · ${scores}`;
  const wall = view.variant === 'gray' ? ' · gray wall' : '';
  return `Round ${view.round}${wall} · player ${view.to_move} to move · scores ${scores}`;
}

function drawView(view) {
  // a redraw of the same position (the engine's best move changed) leaves what is being typed
  if (!board.view || board.view.text !== view.text) $('position-text').value = view.plain;
  board.view = view;
  $('diagram').innerHTML = view.svg;
  preparePng(view);
  $('status').textContent = statusLine(view);
  $('legal-count').textContent = view.legal.length;
  const legal = $('legal');
  legal.replaceChildren(...view.legal.map((move) => button(move, () => attempt(() => play(move)))));
  board.pick = null;
  $('hint').textContent = view.over ? 'The game is over.' : view.tiling
    ? `Player ${view.tiling[0]} tiles pattern line ${view.tiling[1] + 1}: click a wall cell of that row.`
    : `Player ${view.to_move}: click a tile in a factory or the centre, then a pattern line or the floor.`;
  drawMoves();
}

function span(className, text) {
  const s = document.createElement('span');
  s.className = className;
  s.textContent = text;
  return s;
}

function button(text, onClick, title) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (title) b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

// The view of the position shown, with the engine's best move drawn when the engine has one.
async function show(at) {
  board.at = at;
  const best = bestMove();
  const {view} = await api('position', {text: board.texts[at], highlight: best, columns: columns()});
  if (board.at !== at) return;   // another move was shown meanwhile
  board.shownBest = best;
  drawView(view);
  drawRanking();
  drawGraphCursor();
  if ($('engine-auto').checked && !view.over && !sameJob()) await analyse(false);
}

// The players' boards side by side on a wide screen, one under another on a phone.
function columns() {
  return $('diagram').clientWidth < 600 ? 1 : 2;
}

function setLine(texts, moves, at) {
  board.texts = texts;
  board.moves = moves;
  return show(at);
}

async function play(move) {
  const {view, move: played} = await api('play', {text: board.texts[board.at], move, columns: columns()});
  clearError();
  if (board.moves[board.at] === played) return show(board.at + 1);   // the line goes on as it was
  board.texts = board.texts.slice(0, board.at + 1).concat([view.text]);
  board.moves = board.moves.slice(0, board.at).concat([played]);
  return show(board.at + 1);
}

function roundOf(text) {
  return text.split(' ')[2].split('/')[0];
}

function drawMoves() {
  const list = $('moves');
  list.replaceChildren(...board.moves.map((move, i) => {
    const item = document.createElement('li');
    const round = roundOf(board.texts[i]);
    if (i === 0 || roundOf(board.texts[i - 1]) !== round) {
      const label = document.createElement('span');
      label.className = 'round';
      label.textContent = `R${round}`;
      item.append(label);
    }
    const b = button(move, () => attempt(() => show(i + 1)), `move ${i + 1}: go to the position after it`);
    if (i + 1 === board.at) b.className = 'current';
    item.append(b);
    return item;
  }));
  $('undo').disabled = $('first').disabled = board.at === 0;
  $('redo').disabled = $('last').disabled = board.at >= board.texts.length - 1;
}

// Clicks on the diagram: a tile of a factory or the centre picks the source and colour; then a
// pattern line or the floor of the player to move plays; a wall cell plays a gray-wall placement.
function onDiagramClick(event) {
  const view = board.view;
  if (!view || view.over) return;
  const area = event.target.closest('[id]');
  const id = area ? area.id : '';
  const tile = event.target.closest('g.tile');
  const source = id === 'centre' ? 'C' : (id.match(/^factory-(\d)$/) || [])[1];
  if (source && tile) {
    const color = [...tile.classList].map((c) => c.replace('tile-', '')).find((c) => c in LETTERS);
    board.pick = {source, letter: LETTERS[color]};
    area.querySelectorAll('g.tile').forEach((t) => t.classList.toggle('picked', t.classList.contains('tile-' + color)));
    $('hint').textContent = `Now a pattern line or the floor of player ${view.to_move}.`;
    return;
  }
  const target = id.match(/^player-(\d)-(?:line-(\d)|(floor)|(wall))$/);
  if (!target) return;
  const seat = Number(target[1]);
  if (target[4]) {   // a wall cell: its place among the wall's 25 cells
    const cell = [...area.children].indexOf(event.target.closest(`#${id} > *`));
    if (view.tiling && cell >= 0) attempt(() => play(`@${Math.floor(cell / 5) + 1}.${cell % 5 + 1}`));
    return;
  }
  if (!board.pick) {
    showError('first click a tile in a factory or the centre, then a pattern line or the floor');
    return;
  }
  if (seat !== view.to_move) {
    showError(`player ${view.to_move} is to move: click one of player ${view.to_move}'s pattern lines or the floor`);
    return;
  }
  attempt(() => play(`${board.pick.source}${board.pick.letter}${target[2] || 'F'}`));
}

// -- the engine ---------------------------------------------------------------------------------

function sameJob() {
  const job = board.job;
  return job && job.kind === 'analyse' && job.request.text === board.texts[board.at];
}

function bestMove() {
  const job = board.job;
  if (!job || job.kind !== 'analyse' || job.request.text !== board.texts[board.at] || !job.rows) return null;
  return job.rows.length ? job.rows[0].move : null;
}

function percent(x) {
  return x === null || x === undefined ? '' : (100 * x).toFixed(1);
}

// How far a move is below the best, in the value the table ranks by: the win share (points of
// percentage), or the margin where the rest of the game is solved exactly.
function behindBest(row, best) {
  if (row === best) return 'best';
  const gap = row.exact ? best.margin - row.margin : 100 * (best.win_share - row.win_share);
  const text = Math.abs(gap).toFixed(row.exact ? 0 : 1);
  const sign = Number(text) === 0 ? '' : gap > 0 ? '−' : '+';   // a tie shows as 0, not as −0.0
  return `${sign}${text}${row.exact ? ' pts' : ''}`;
}

// The engine as it ran for the shown position (or as the form would run it): policy and time.
function engineLabel(job) {
  if (job) {
    const budget = job.request.seconds ? `${job.request.seconds} s` : `${job.request.rollouts} rollouts`;
    return `${job.request.policy} · ${budget}`;
  }
  return `${$('engine-policy').value} · ${$('engine-seconds').value} s`;
}

// The position's evaluation: the best move's win share for the side to move, with its interval.
function drawEvaluation(rows, job) {
  const view = board.view;
  const best = rows.length ? rows[0] : null;
  $('engine-badge').textContent = engineLabel(job);
  if (view && view.over) {
    $('eval-figure').textContent = '–';
    $('eval-detail').textContent = 'the game is over';
  } else if (best) {
    const interval = best.exact ? 'solved exactly' : `95% CI ${percent(best.ci_low)}–${percent(best.ci_high)}`;
    $('eval-figure').textContent = `${percent(best.win_share)} %`;
    $('eval-detail').textContent = `player ${view.to_move} to win (${interval}) · best ${best.move}`;
  } else {
    $('eval-figure').textContent = '–';
    $('eval-detail').textContent = job && job.state === 'running' ? 'evaluating…' : 'no evaluation yet';
  }
}

function drawRanking() {
  const job = board.job;
  const body = $('ranked').tBodies[0];
  const mine = sameJob();
  const rows = mine && job.rows ? job.rows : [];
  body.replaceChildren(...rows.map((row) => {
    const tr = document.createElement('tr');
    if (row.worse_than_best) tr.className = 'worse';
    const interval = row.exact ? 'exact' : `${percent(row.ci_low)} – ${percent(row.ci_high)}`;
    const margin = row.margin === null ? '' : (row.margin > 0 ? '+' : '') + row.margin.toFixed(1);
    const rollouts = row.exact ? 'exact' : row.rollouts.toLocaleString('en');
    const cells = [row.rank, null, null, behindBest(row, rows[0]), rollouts, margin];
    cells.forEach((value, i) => {
      const td = document.createElement('td');
      if (i === 1) td.append(button(row.move, () => attempt(() => play(row.move)), `play ${row.move}`));
      else if (i === 2) td.append(`${percent(row.win_share)} %`, ' ', span('ci', `(${interval})`));
      else td.textContent = value;
      if (i >= 3) td.className = 'number';
      tr.append(td);
    });
    return tr;
  }));
  drawEvaluation(rows, mine ? job : null);
  const running = job && job.state === 'running';
  $('stop').disabled = !running;
  $('engine-bar').style.width = `${Math.round(100 * (mine ? job.done : 0))}%`;
  let note = '';
  if (mine) {
    const attrs = job.attrs || {};
    const how = attrs.stopped === 'exact' ? 'the rest of the game solved exactly'
      : `${(attrs.rollouts || 0).toLocaleString('en')} rollouts`;
    const policy = `policy ${job.request.policy}`;
    note = running ? `Analysing… ${how} (${job.elapsed} s) · ${policy}`
      : job.state === 'failed' ? `Failed: ${job.message} · ${policy}`
      : `${job.state === 'finished' ? 'Done' : 'Stopped (' + job.state + ')'}: ${how} in ${job.elapsed} s · ${policy}`;
  } else if (job && job.state === 'running') {
    note = job.kind === 'review' ? 'The engine is reviewing the game.'
      : job.kind === 'simulate' ? `The engine is playing the simulated game (${job.request.policy}): ` +
        `${job.moves || 0} moves so far.`
      : 'The engine is analysing another position.';
  }
  $('engine-note').textContent = note;
}

async function analyse(replace) {
  if (board.view.over) return;
  // a review or a simulated game the engine is busy with is replaced only when asked for
  if (!replace && board.job && board.job.state === 'running' && board.job.kind !== 'analyse') return;
  const seconds = Number($('engine-seconds').value);
  takeJob(await api('analyse', {text: board.texts[board.at], policy: $('engine-policy').value, seconds,
    replace: true}));
}

// A job's status, from starting it or from polling: the panels show it, the diagram draws its best
// move, and the page polls until it ends.
function takeJob(job) {
  if (!job) return;
  const reviewEnded = board.review && board.review.state === 'running' && job.kind === 'review' &&
    job.id === board.review.id && job.state !== 'running';
  board.job = job;
  if (job.kind === 'review') board.review = job;
  drawRanking();
  drawReview();
  const best = bestMove();
  if (best !== board.shownBest) attempt(() => redrawBest(best));
  if (job.kind === 'analyse' && job.state === 'failed' && job.request.text === board.texts[board.at]) {
    showError(job.message);
  }
  if (job.kind === 'simulate') takeSimulation(job);
  if (job.state === 'running') poll();
  // the engine is free again: back to analysing the position shown
  if (reviewEnded && $('engine-auto').checked && !board.view.over) attempt(() => analyse(false));
}

// The simulated game asked for, once the engine has played it: loaded as the game to review.
function takeSimulation(job) {
  const asked = board.simulating;
  if (!asked || asked.id !== job.id || job.state === 'running') return;
  board.simulating = null;
  if (job.state === 'finished') {
    attempt(() => loadGame(job.line, asked.request, asked.label));
  } else {
    showError(job.message || `the simulated game stopped (${job.state}) after ${job.moves || 0} moves ` +
      `(azul-fast board --time-limit bounds it)`);
  }
}

async function redrawBest(best) {
  board.shownBest = best;
  const at = board.at;
  const {view} = await api('position', {text: board.texts[at], highlight: best, columns: columns()});
  if (board.at === at && board.shownBest === best && !board.pick) drawView(view);
}

async function poll() {
  if (board.polling) return;
  board.polling = true;
  try {
    while (board.job && board.job.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 400));
      takeJob((await api('job')).job);
    }
  } catch (error) {
    showError(error.message);
  } finally {
    board.polling = false;
  }
}

// -- the review ---------------------------------------------------------------------------------

const GRAPH = {width: 800, height: 320, left: 44, right: 12, top: 12, bottom: 26};

function svgEl(tag, attrs, text) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

function drawReview() {
  const job = board.review;
  const graph = $('graph');
  const running = job && job.state === 'running';
  $('review-start').disabled = !board.game;
  $('export-csv').disabled = !(job && job.csv);
  $('review-bar').style.width = `${Math.round(100 * (job ? job.done : 0))}%`;
  graph.hidden = $('graph-caption').hidden = !job;
  if (!job) return;
  const rows = job.rows || [];
  const plies = (job.attrs && job.attrs.plies) || rows.length || 1;
  const mistakes = rows.filter((r) => r.flag === 'mistake').length;
  const blunders = rows.filter((r) => r.flag === 'blunder').length;
  $('review-note').textContent = (running ? `Reviewing… ${rows.length} of ${plies} moves` :
    job.state === 'failed' ? `Failed: ${job.message}` :
    `${job.state === 'finished' ? 'Reviewed' : 'Stopped (' + job.state + ') after'} ${rows.length} of ${plies} moves`) +
    ` · ${mistakes} mistakes, ${blunders} blunders · policy ${job.request.policy}, ` +
    `${job.request.rollouts} rollouts a move`;
  const g = GRAPH;
  const x = (ply) => g.left + (g.width - g.left - g.right) * (plies > 1 ? ply / (plies - 1) : 0.5);
  const y = (share) => g.top + (g.height - g.top - g.bottom) * (1 - share);
  const parts = [];
  for (const share of [0, 0.5, 1]) {
    parts.push(svgEl('line', {x1: g.left, x2: g.width - g.right, y1: y(share), y2: y(share), class: 'grid'}));
    parts.push(svgEl('text', {x: g.left - 6, y: y(share) + 4, 'text-anchor': 'end'}, `${100 * share}%`));
  }
  for (let ply = 0; ply < plies; ply += 10) {
    parts.push(svgEl('text', {x: x(ply), y: g.height - 6, 'text-anchor': 'middle'}, String(ply + 1)));
  }
  const points = rows.map((r) => `${x(r.ply)},${y(r.first_player_share)}`).join(' ');
  parts.push(svgEl('polyline', {points, class: 'share'}));
  parts.push(svgEl('line', {id: 'graph-cursor', y1: g.top, y2: g.height - g.bottom, x1: -10, x2: -10}));
  for (const r of rows) {
    const dot = svgEl('circle', {cx: x(r.ply), cy: y(r.first_player_share), r: r.flag ? 6 : 3.5,
      class: 'point ' + r.flag, 'data-ply': r.ply, tabindex: 0});
    dot.append(svgEl('title', {}, `move ${r.ply + 1} ${r.move} (player ${r.seat})` +
      (r.flag ? `: ${r.flag}, best ${r.best_move}, lost ${percent(r.loss)} points` : '')));
    parts.push(dot);
  }
  graph.replaceChildren(...parts);
  drawGraphCursor();
  const flagged = rows.filter((r) => r.flag);
  $('flagged').replaceChildren(...flagged.map((r) => {
    const item = document.createElement('li');
    item.className = r.flag;
    item.append(button(`${r.ply + 1}. ${r.move}`, () => attempt(() => goToGamePly(r.ply))),
      ` ${r.flag} by player ${r.seat}: best ${r.best_move}, ${percent(r.loss)} points of win share lost`);
    return item;
  }));
}

function drawGraphCursor() {
  const cursor = $('graph-cursor');
  const job = board.review;
  if (!cursor || !job || !board.game) return;
  const onGame = board.texts[board.at] === board.game.texts[board.at];
  const plies = (job.attrs && job.attrs.plies) || 1;
  const at = GRAPH.left + (GRAPH.width - GRAPH.left - GRAPH.right) * (board.at / Math.max(1, plies - 1));
  cursor.setAttribute('x1', onGame ? at : -10);
  cursor.setAttribute('x2', onGame ? at : -10);
}

// The reviewed game's position before move `ply` (on a phone, scrolled to).
async function goToGamePly(ply) {
  await setLine(board.game.texts.slice(), board.game.moves.slice(), ply);
  if (window.innerWidth < 900 && ply > 0) $('play').scrollIntoView({behavior: 'smooth'});
}

function loadGame(line, request, label) {
  board.game = {request, texts: line.plies.map((p) => p.text).concat([line.final]),
    moves: line.plies.map((p) => p.move)};
  $('review-game').textContent = `${label}: ${board.game.moves.length} moves.`;
  board.review = null;
  drawReview();
  return goToGamePly(0);
}

// -- exports (made here: the server writes no file) ---------------------------------------------

function download(name, type, content) {
  const url = URL.createObjectURL(content instanceof Blob ? content : new Blob([content], {type}));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function exportName(ext) {
  return `azul-position-${board.at}.${ext}`;
}

// The diagram as PNG, drawn from its SVG at twice its size (sharp in print).
function pngOf(svg) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => {
      const scale = 2;
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth * scale;
      canvas.height = image.naturalHeight * scale;
      const context = canvas.getContext('2d');
      context.scale(scale, scale);
      context.drawImage(image, 0, 0);
      canvas.toBlob(resolve, 'image/png');
    };
    image.onerror = () => reject(new Error('the browser could not draw the diagram as PNG'));
    image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
  });
}

// Drawn ahead, whenever the diagram changes: a download started in the click itself is allowed
// where one started later, once the picture is drawn, may be blocked as an automatic download.
function preparePng(view) {
  const png = {svg: view.svg, blob: null};
  board.png = png;
  pngOf(view.svg).then((blob) => { png.blob = blob; }, () => {});
}

async function exportPng() {
  const png = board.png;
  const blob = png && png.svg === board.view.svg && png.blob ? png.blob : await pngOf(board.view.svg);
  download(exportName('png'), 'image/png', blob);
}

// The line played as a game file (azul_fast.core.played_game's; replay --game and this page load it).
async function exportGame() {
  const {document: game} = await api('export', {texts: board.texts, moves: board.moves});
  download('azul-game.json', 'application/json', JSON.stringify(game, null, 1) + '\n');
}

// -- wiring -------------------------------------------------------------------------------------

function wire() {
  $('error-close').addEventListener('click', clearError);
  $('diagram').addEventListener('click', onDiagramClick);
  $('first').addEventListener('click', () => attempt(() => show(0)));
  $('undo').addEventListener('click', () => attempt(() => show(Math.max(0, board.at - 1))));
  $('redo').addEventListener('click', () => attempt(() => show(Math.min(board.texts.length - 1, board.at + 1))));
  $('last').addEventListener('click', () => attempt(() => show(board.texts.length - 1)));
  $('engine-form').addEventListener('submit', (e) => { e.preventDefault(); attempt(() => analyse(true)); });
  $('stop').addEventListener('click', () => attempt(async () => takeJob((await api('cancel', {})).job)));
  $('deal-form').addEventListener('submit', (e) => {
    e.preventDefault();
    attempt(async () => {
      const {view} = await api('new', {players: Number($('deal-players').value), variant: $('deal-variant').value,
        seed: Number($('deal-seed').value), columns: columns()});
      clearError();
      await setLine([view.text], [], 0);
    });
  });
  $('text-form').addEventListener('submit', (e) => {
    e.preventDefault();
    attempt(async () => {
      const {view} = await api('position', {text: $('position-text').value, columns: columns()});
      clearError();
      await setLine([view.text], [], 0);
    });
  });
  $('game-file').addEventListener('change', () => {
    const file = $('game-file').files[0];
    if (!file) return;
    attempt(async () => {
      const content = await file.text();
      const line = await api('game', {content});
      clearError();
      await loadGame(line, {document: line.document}, file.name);
    });
  });
  $('sim-form').addEventListener('submit', (e) => {
    e.preventDefault();
    attempt(async () => {
      const request = {players: Number($('sim-players').value), policy: $('sim-policy').value,
        seed: Number($('sim-seed').value)};
      const job = await api('simulate', {...request, replace: true});   // played by the engine's process
      clearError();
      board.simulating = {id: job.id, request, label: `seed ${request.seed}, ${request.players} players, ${request.policy}`};
      takeJob(job);
    });
  });
  $('review-form').addEventListener('submit', (e) => {
    e.preventDefault();
    attempt(async () => {
      const job = await api('review', {...board.game.request, policy: board.game.request.policy || $('engine-policy').value,
        rollouts: Number($('review-rollouts').value), paired: Number($('review-paired').value), replace: true});
      takeJob(job);
    });
  });
  $('graph').addEventListener('click', (e) => {
    const point = e.target.closest('circle.point');
    if (point && board.game) attempt(() => goToGamePly(Number(point.dataset.ply)));
  });
  $('export-svg').addEventListener('click', () => download(exportName('svg'), 'image/svg+xml', board.view.svg));
  $('export-png').addEventListener('click', () => attempt(exportPng));
  $('export-text').addEventListener('click', () => download(exportName('txt'), 'text/plain', board.view.plain + '\n'));
  $('export-csv').addEventListener('click', () => download('review.csv', 'text/csv', board.review.csv));
  $('export-game').addEventListener('click', () => attempt(exportGame));
  for (const field of [$('engine-policy'), $('engine-seconds')]) field.addEventListener('change', drawRanking);
}

function start() {
  for (const select of [$('engine-policy'), $('sim-policy')]) {
    select.replaceChildren(...initial.policies.map((name) => new Option(name, name)));
    select.value = initial.analysis.policy;
  }
  $('engine-seconds').value = initial.analysis.seconds;
  $('deal-players').value = initial.deal.players;
  $('deal-variant').value = initial.deal.variant;
  $('deal-seed').value = initial.deal.seed;
  $('review-rollouts').value = initial.review.rollouts;
  $('review-paired').value = initial.review.paired;
  $('engine-seconds').max = initial.limit;
  wire();
  board.texts = [initial.view.text];
  board.moves = [];
  board.job = initial.job;
  board.shownBest = bestMove();
  drawView(initial.view);
  takeJob(initial.job);
  let shownColumns = 2;   // the server draws the first diagram with the boards side by side
  const fit = () => {
    if (columns() !== shownColumns) {
      shownColumns = columns();
      attempt(() => redrawBest(board.shownBest));
    }
  };
  window.addEventListener('resize', fit);
  fit();
  if (!sameJob() && $('engine-auto').checked && !initial.view.over) attempt(() => analyse(false));
}

start();
