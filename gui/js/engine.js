// engine.js - the page's line-by-line conversation with engine/sigil over a
// WebSocket (websocketd turns each stdout line into one message and each
// message into one stdin line).
//
// Requests go out one at a time; each waits for the line that ends it:
//   query <what>   -> `response ...`
//   a command      -> sent with `isready` behind it, ends at `readyok`
//   go ...         -> `bestmove ...` (info lines are passed on as they come)
//   uci            -> `uciok`
// Error lines (`info string error: ...`) are attached to the request that is
// waiting, so a caller learns exactly what went wrong with its own command.

export class Engine {
  constructor(url) {
    this.url = url;
    this.socket = null;
    this.queue = [];        // requests not sent yet
    this.current = null;    // the request waiting for its last line
    this.onInfo = null;     // (line) => void, for info lines of a search
    this.onLine = null;     // (direction, line) => void, a log of the talk
    this.onClose = null;    // () => void, when the connection is lost
    this.immediate = [];    // queries sent during a search, waiting for their response
  }

  connect() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(this.url);
      this.socket = socket;
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new Error('cannot connect to ' + this.url));
      socket.onclose = () => {
        const waiting = [...(this.current ? [this.current] : []), ...this.queue, ...this.immediate];
        this.immediate = [];
        this.current = null;
        this.queue = [];
        for (const request of waiting) request.reject(new Error('connection closed'));
        if (this.onClose) this.onClose();
      };
      socket.onmessage = (event) => {
        for (const line of String(event.data).split('\n'))
          if (line.trim() !== '') this.received(line.replace(/\r$/, ''));
      };
    });
  }

  get connected() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  // Sends one raw line at once (used for `stop` while a search runs).
  sendNow(line) {
    if (this.onLine) this.onLine('out', line);
    this.socket.send(line);
  }

  received(line) {
    if (this.onLine) this.onLine('in', line);
    // A query sent during a search: its error lines and its response come
    // before anything else of it (protocol.md, "Queries").
    if (this.immediate.length && (line.startsWith('response') || line.startsWith('info string error:'))) {
      const query = this.immediate[0];
      if (line.startsWith('response')) {
        this.immediate.shift();
        query.resolve({ last: line, lines: query.lines, errors: query.errors });
      } else {
        query.errors.push(line.slice('info string error:'.length).trim());
      }
      return;
    }
    const request = this.current;
    if (line.startsWith('info string error:')) {
      if (request) request.errors.push(line.slice('info string error:'.length).trim());
      return;
    }
    if (!request) return;
    if (line.startsWith('info')) {
      if (request.kind === 'go' && this.onInfo) this.onInfo(line);
      request.lines.push(line);
      return;
    }
    let done = false;
    if (request.kind === 'query' && line.startsWith('response')) done = true;
    else if (request.kind === 'command' && line === 'readyok') done = true;
    else if (request.kind === 'go' && line.startsWith('bestmove')) done = true;
    else if (request.kind === 'uci' && line === 'uciok') done = true;
    if (!done) {
      request.lines.push(line);
      return;
    }
    this.current = null;
    request.resolve({ last: line, lines: request.lines, errors: request.errors });
    this.next();
  }

  next() {
    if (this.current || this.queue.length === 0 || !this.connected) return;
    const request = this.queue.shift();
    this.current = request;
    for (const line of request.send) this.sendNow(line);
    // A search stopped before it was sent stops at once.
    if (request.kind === 'go' && request.stopped) this.sendNow('stop');
  }

  request(kind, send) {
    return new Promise((resolve, reject) => {
      this.queue.push({ kind, send, lines: [], errors: [], resolve, reject });
      this.next();
    });
  }

  // `query <what>`: the text after `response `, and the error lines before it.
  async query(what) {
    const answer = await this.request('query', ['query ' + what]);
    return { text: answer.last.replace(/^response ?/, ''), errors: answer.errors, lines: answer.lines };
  }

  // `query <what>` whose answer is JSON; null for `response none`.
  async queryJson(what) {
    const answer = await this.query(what);
    if (answer.text === 'none') {
      const why = answer.errors.join('; ') || 'no answer';
      throw new Error(`query ${what}: ${why}`);
    }
    return JSON.parse(answer.text);
  }

  // `query <what>` at once, also while a search runs (the engine answers
  // queries during a search); otherwise in turn like any request.
  async queryNow(what) {
    if (!(this.current && this.current.kind === 'go') || !this.connected) return this.query(what);
    const answer = await new Promise((resolve, reject) => {
      this.immediate.push({ lines: [], errors: [], resolve, reject });
      this.sendNow('query ' + what);
    });
    return { text: answer.last.replace(/^response ?/, ''), errors: answer.errors, lines: answer.lines };
  }

  // A command with no reply of its own; resolves with its lines and errors.
  command(line) {
    return this.request('command', [line, 'isready']);
  }

  // `go ...`: resolves with the best move's text (info lines go to onInfo).
  async go(args) {
    const answer = await this.request('go', ['go ' + args]);
    const best = answer.last.split(/\s+/)[1] || '0000';
    return { best, errors: answer.errors, lines: answer.lines };
  }

  uci() {
    return this.request('uci', ['uci']);
  }

  // Ends a running search early: its bestmove still comes and ends the go.
  // A search still waiting to be sent is stopped as soon as it is.
  stop() {
    if (this.current && this.current.kind === 'go' && !this.current.stopped) {
      this.current.stopped = true;
      this.sendNow('stop');
    }
    for (const request of this.queue) if (request.kind === 'go') request.stopped = true;
  }
}
