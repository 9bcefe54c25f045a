" .lmdl files are lmdl models (editors/README.md).
autocmd BufRead,BufNewFile *.lmdl setfiletype lmdl
