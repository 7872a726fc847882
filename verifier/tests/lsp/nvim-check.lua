-- Run inside the headless Neovim of nvim-test.sh, on the demo page: waits
-- for the server's first diagnostics, types a wrong number, waits for
-- its diagnostic and writes what Neovim holds to $LSP_OUT.
local out = os.getenv('LSP_OUT')
local published = 0
local default = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  published = published + 1
  return default(err, result, ctx, config)
end
local function fail(why)
  local f = io.open(out, 'w'); f:write('FAIL: ' .. why .. '\n'); f:close()
  vim.cmd('qall!')
end
if not vim.wait(30000, function() return published >= 1 end, 20) then
  fail('no diagnostics after opening the page')
end
vim.cmd([[silent %s/it takes 1\.8 ms/it takes 1.9 ms/]])
if not vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 20) then
  fail('no diagnostic after the change')
end
local f = io.open(out, 'w')
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?'
  f:write(string.format('%d:%d-%d:%d %d %s %s\n', d.lnum + 1, d.col + 1, d.end_lnum + 1, d.end_col + 1,
    d.severity, code, (d.message:gsub('\n.*', ''))))
end
f:close()
vim.cmd('qall!')
