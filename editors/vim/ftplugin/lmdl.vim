" Vim filetype plugin for lmdl: comment settings, so that gq, gc-style
" plugins and 'formatoptions' know that '%' starts a comment.
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1

setlocal comments=:%
setlocal commentstring=%\ %s
setlocal suffixesadd=.lmdl

let b:undo_ftplugin = "setlocal comments< commentstring< suffixesadd<"
