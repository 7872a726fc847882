-- coursecheck's language server for Neovim's built-in client (0.7 and
-- newer): verify's diagnostics as you type on the course's pages and
-- lesson READMEs, hover and go to definition on numbers, snippets and
-- transcripts, code actions that write the annotations, completion of
-- place names, rename of a snippet.
--
-- Put `require('coursecheck').setup()` in your init.lua with this file on
-- the runtime path (make install puts it in
-- $(PREFIX)/share/coursecheck/nvim/lua/coursecheck.lua; add
-- $(PREFIX)/share/coursecheck/nvim to 'runtimepath'), or source it.
-- Options: cmd (default {'coursecheck', 'lsp'}; add '--as=published' to
-- see what a published page may not carry).
local M = {}

-- The course folder above a file: the nearest one holding pages/,
-- programs/ and evidence/.
local function course_root(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  while dir and dir ~= '' do
    if vim.fn.isdirectory(dir .. '/pages') == 1 and vim.fn.isdirectory(dir .. '/programs') == 1
        and vim.fn.isdirectory(dir .. '/evidence') == 1 then
      return dir
    end
    local up = vim.fn.fnamemodify(dir, ':h')
    if up == dir then return nil end
    dir = up
  end
  return nil
end

local clients = {}

function M.attach(buf, opts)
  opts = opts or {}
  local root = course_root(vim.api.nvim_buf_get_name(buf))
  if not root then return nil end
  local id = clients[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client({
      name = 'coursecheck',
      cmd = opts.cmd or { 'coursecheck', 'lsp' },
      cmd_cwd = root,
      root_dir = root,
    })
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(buf, id)
    -- place names complete with <C-x><C-o> inside an annotation's brackets
    vim.bo[buf].omnifunc = 'v:lua.vim.lsp.omnifunc'
  end
  return id
end

function M.setup(opts)
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'markdown',
    callback = function(args) M.attach(args.buf, opts) end,
  })
end

return M
