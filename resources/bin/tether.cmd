@echo off
rem The `tether` command of the installed app: Tether.exe in Node mode runs the CLI, with the same
rem core and native build as the window. Add this folder (resources\bin) to your PATH.
setlocal
set "ELECTRON_RUN_AS_NODE=1"
"%~dp0..\..\Tether.exe" "%~dp0..\app.asar\out\main\cli.js" %*
exit /b %ERRORLEVEL%
