-- Run inside the headless Neovim of nvim-test.sh on a new page of plain
-- numbers: the author's keystrokes, three times over,
--   gg  :lua vim.diagnostic.goto_next()<CR>  :lua vim.lsp.buf.code_action()<CR>  1<CR>
-- (the pick "1<CR>" of the action menu stands in vim.ui.select here, as a
-- headless Neovim has nobody to answer its prompt), then :w.  Writes
-- "done" or what went wrong to $LSP_OUT; the shell runs verify.
local out = os.getenv('LSP_OUT')
local published = 0
local default = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  published = published + 1
  return default(err, result, ctx, config)
end
vim.ui.select = function(items, _, on_choice) on_choice(items[1], 1) end
local function finish(what)
  local f = io.open(out, 'w'); f:write(what .. '\n'); f:close()
  vim.cmd('qall!')
end
if not vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 20) then
  finish('FAIL: no diagnostics on the new page')
end
for step = 1, 3 do
  local tick, seen = vim.api.nvim_buf_get_changedtick(0), published
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(
    'gg:lua vim.diagnostic.goto_next()<CR>:lua vim.lsp.buf.code_action()<CR>', true, false, true), 'x', false)
  if not vim.wait(30000, function() return vim.api.nvim_buf_get_changedtick(0) ~= tick end, 20) then
    finish('FAIL: step ' .. step .. ': no code action applied')
  end
  if not vim.wait(30000, function() return published > seen end, 20) then
    finish('FAIL: step ' .. step .. ': no diagnostics after the action')
  end
end
-- what is left may only be the reviewer's sign-off (approval-*), which no
-- author's keystroke gives: the shell approves as a reviewer
local left = vim.tbl_filter(function(d)
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ''
  return not tostring(code):match('^approval')
end, vim.diagnostic.get(0))
if #left ~= 0 then
  finish('FAIL: diagnostics left: ' .. vim.inspect(vim.tbl_map(function(d) return d.message end, left)))
end
vim.cmd('write')
finish('done')
