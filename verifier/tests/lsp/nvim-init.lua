-- The test's init.lua: the README's set-up, with the binary under test.
vim.opt.runtimepath:prepend(os.getenv('COURSECHECK_NVIM'))
vim.cmd('filetype on')
require('coursecheck').setup({ cmd = { os.getenv('COURSECHECK'), 'lsp' } })
