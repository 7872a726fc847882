-- The test's init.lua: the README's set-up, with the binary under test.
vim.opt.runtimepath:prepend(os.getenv('COURSECHECK_NVIM'))
vim.cmd('filetype on')
local cmd = { os.getenv('COURSECHECK'), 'lsp' }
if os.getenv('COURSECHECK_ARGS') then table.insert(cmd, os.getenv('COURSECHECK_ARGS')) end
require('coursecheck').setup({ cmd = cmd })
