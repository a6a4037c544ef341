-- Headless Neovim 0.7 as a real LSP client of `agentls serve`: a plan-driven driver.
--
-- Run by tests/nvim/test_nvim_client.py as
--   nvim --headless -u NONE -i NONE -n -c 'luafile tests/nvim/client.lua'
-- with these environment variables:
--   AGENTLS_NVIM_CMD        JSON list: the server command line
--   AGENTLS_NVIM_WORKSPACE  the workspace root (root_dir of the client)
--   AGENTLS_NVIM_PLAN       JSON file: the steps to run (see below)
--   AGENTLS_NVIM_RESULTS    where to write results.json (rewritten after every step)
--
-- Steps (each has a unique `name`):
--   {kind="request", method=M, file=F?, at={anchor, target}?, position={line, character}?,
--    params=P?, timeout_ms=T?}
--       opens F (workspace-relative, or absolute) in a buffer attached to the client, builds
--       params {textDocument={uri}, position} (+ P) and sends M with client.request_sync.
--       `at` is found in the buffer: the first line containing `anchor`, at `target` inside
--       it; the character is converted to UTF-16 with vim.str_utfindex.
--   {kind="edit", file=F, start=S, stop=E, lines={...}}  nvim_buf_set_lines (nvim sends didChange)
--   {kind="wait", ms=N}                                   let timers (didChange debounce) fire
--   {kind="diagnostics"}     a copy of the diagnostics published so far (uri -> last params)
--
-- This script asserts nothing about answers: it records them (results.json), and the pytest
-- wrapper judges. It exits 1 only when the session itself broke (no initialize, a Lua error).
-- Neovim 0.7 API only: vim.lsp.start_client, buf_attach_client, client.request_sync.

local function env(name)
  local value = os.getenv(name)
  assert(value and value ~= '', name .. ' is not set')
  return value
end

local results_path = env('AGENTLS_NVIM_RESULTS')
local out = {
  nvim_version = vim.version(),
  steps = {},
  order = {},
  progress = {},
  messages = {},
  did_change = {},
  buffers = {},
  diagnostics = vim.empty_dict(),
}

local function read_json(path)
  local f = assert(io.open(path, 'r'), 'cannot read ' .. path)
  local text = f:read('*a')
  f:close()
  return vim.fn.json_decode(text)
end

local function save()
  local f = assert(io.open(results_path, 'w'), 'cannot write ' .. results_path)
  f:write(vim.fn.json_encode(out))
  f:close()
end

local function finish(code)
  save()
  vim.cmd(code == 0 and 'qa!' or 'cquit! 1')
end

local root = env('AGENTLS_NVIM_WORKSPACE')
local cmd = vim.fn.json_decode(env('AGENTLS_NVIM_CMD'))
local plan = read_json(env('AGENTLS_NVIM_PLAN'))
local client, client_id
local buffers = {} -- file as named in the plan -> bufnr

local function open(file)
  if buffers[file] then
    return buffers[file]
  end
  local path = file:sub(1, 1) == '/' and file or (root .. '/' .. file)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(bufnr, client_id) -- sends didOpen
  buffers[file] = bufnr
  return bufnr
end

local function locate(bufnr, at)
  local anchor, target = at[1], at[2]
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local s = line:find(anchor, 1, true)
    if s then
      local inner = anchor:find(target, 1, true)
      assert(inner, string.format('%q is not inside %q', target, anchor))
      local byte_col = (s - 1) + (inner - 1)
      local _, utf16 = vim.str_utfindex(line, byte_col)
      return { line = i - 1, character = utf16 }
    end
  end
  error(string.format('anchor %q not found in buffer %d', anchor, bufnr))
end

local function request(step)
  local bufnr = step.file and open(step.file) or buffers[plan[1].file] or 0
  local params = {}
  if step.file then
    params.textDocument = { uri = vim.uri_from_bufnr(bufnr) }
  end
  if step.at then
    params.position = locate(bufnr, step.at)
  elseif step.position then
    params.position = { line = step.position[1], character = step.position[2] }
  end
  for k, v in pairs(step.params or {}) do
    params[k] = v
  end
  local started = vim.loop.hrtime()
  local response, failure = client.request_sync(step.method, params, step.timeout_ms or 10000, bufnr)
  local record = {
    method = step.method,
    params = params,
    ms = math.floor((vim.loop.hrtime() - started) / 1e6),
    responded = response ~= nil,
    failure = failure, -- 'timeout' / 'interrupted' / nil
  }
  if response then
    record.result = response.result
    record.error = response.err
  end
  return record
end

local function edit(step)
  local bufnr = open(step.file)
  vim.api.nvim_buf_set_lines(bufnr, step.start, step.stop, false, step.lines)
  return { lines = #step.lines }
end

local kinds = {
  request = request,
  edit = edit,
  wait = function(step)
    vim.wait(step.ms, function() return false end, 10)
    return {}
  end,
  diagnostics = function()
    return { published = vim.deepcopy(out.diagnostics) }
  end,
}

local ok, err = pcall(function()
  vim.cmd('filetype on') -- -u NONE skips detection; the client sends languageId from 'filetype'
  client_id = vim.lsp.start_client({
    name = 'agentls',
    cmd = cmd,
    cmd_cwd = root,
    root_dir = root,
    handlers = {
      ['$/progress'] = function(e, result, ctx, config)
        table.insert(out.progress, result.value and result.value.kind or vim.NIL)
        return vim.lsp.handlers['$/progress'](e, result, ctx, config)
      end,
      ['textDocument/publishDiagnostics'] = function(e, result, ctx, config)
        out.diagnostics[result.uri] = result
        return vim.lsp.handlers['textDocument/publishDiagnostics'](e, result, ctx, config)
      end,
      ['window/logMessage'] = function(_, result)
        table.insert(out.messages, { type = result.type, message = result.message })
      end,
      ['window/showMessage'] = function(_, result)
        table.insert(out.messages, { type = result.type, message = result.message, shown = true })
      end,
    },
  })
  assert(client_id, 'vim.lsp.start_client failed')
  client = vim.lsp.get_client_by_id(client_id)

  -- Record the didChange notifications nvim sends (the debounce timer and request flushes
  -- both call client.notify).
  local notify = client.notify
  client.notify = function(method, params)
    if method == 'textDocument/didChange' then
      table.insert(out.did_change, params)
    end
    return notify(method, params)
  end

  local first = plan[1]
  assert(first and first.file, 'the first step must name a file (it is opened before initialize)')
  open(first.file)
  vim.wait(20000, function() return client.initialized or client.is_stopped() end, 20)
  assert(not client.is_stopped(), 'the server exited before initialize finished (see lsp.log)')
  assert(client.initialized, 'initialize timed out (20 s)')
  out.initialized = true
  out.server_capabilities = client.server_capabilities
  out.offset_encoding = client.offset_encoding

  for _, step in ipairs(plan) do
    assert(kinds[step.kind], 'unknown step kind ' .. tostring(step.kind))
    assert(out.steps[step.name] == nil, 'duplicate step name ' .. step.name)
    local record = kinds[step.kind](step)
    record.kind = step.kind
    record.alive = not client.is_stopped()
    out.steps[step.name] = record
    table.insert(out.order, step.name)
    save()
  end

  for file, bufnr in pairs(buffers) do
    out.buffers[file] = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  end
  client.stop() -- shutdown + exit
  out.stopped = vim.wait(5000, function() return client.is_stopped() end, 20)
end)

if not ok then
  out.error = tostring(err)
end
finish(ok and 0 or 1)
