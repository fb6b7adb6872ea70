# Homebrew formula, with this repository as a tap (docs/install.md#homebrew-mac). The repository's name
# has no homebrew- prefix, so the tap is added with its URL first:
#   brew tap OWNER/skan-mock https://github.com/OWNER/skan-mock
#   brew install OWNER/skan-mock/skan-mock           # the release's macOS archive (one universal binary)
#   brew install --HEAD OWNER/skan-mock/skan-mock    # the main branch, built from source (openssl@3, qrencode)
# The lines between BEGIN release and END release are written by Scripts/formula.sh from the release's
# macOS archive and its .sha256 (release.yml runs it on each version tag, with the repository's name in
# place of OWNER). Until the first release there are none, and only --HEAD installs.
# Not yet run by Homebrew on a Mac: Tests/Formula/check.sh checks it on Linux as far as it can.
class SkanMock < Formula
  desc "Local stand-in for Singular's SKAdNetwork conversion-value service"
  homepage "https://github.com/OWNER/skan-mock"
  # BEGIN release
  # END release

  head do
    url "https://github.com/OWNER/skan-mock.git", branch: "main"
    depends_on xcode: ["16.0", :build]
    depends_on "pkgconf" => :build
    depends_on "openssl@3"
    depends_on "qrencode"
  end

  # The archive is a macOS binary, for macOS 14 or later (Linux: the release's Linux archive).
  depends_on macos: :sonoma

  def install
    if build.head?
      # HTTPS (--https-port, a real iPhone) with Homebrew's OpenSSL 3 and libqrencode (Package.swift).
      ENV["SKAN_MOCK_TLS"] = "1"
      system "swift", "build", "--disable-sandbox", "--configuration", "release", "--product", "skan-mock"
      bin.install ".build/release/skan-mock"
    else
      bin.install "skan-mock"
    end
    pkgshare.install "config"
  end

  def caveats
    <<~EOS
      The bundled models are in #{opt_pkgshare}/config (skan-mock --model #{opt_pkgshare}/config/revenue.json).
      The release's binary serves HTTPS too (--https-port): OpenSSL 3 and libqrencode are linked into it.
    EOS
  end

  test do
    assert_match(/\A\d+\.\d+\.\d+/, shell_output("#{bin}/skan-mock --version"))
    system bin/"skan-mock", "validate", pkgshare/"config/singular-testing.json"
    port = free_port
    pid = spawn "#{bin}/skan-mock", "--port", port.to_s
    begin
      60.times do
        break if quiet_system bin/"skan-mock", "health", "--port", port.to_s

        sleep 0.5
      end
      answer = shell_output("curl -sS 'http://127.0.0.1:#{port}/api/v1/conversion_value?a=KEY&i=com.example.app&p=iOS&idfv=DEVICE-1&n=level_up&conversion_value=0'")
      assert_equal '{"conversion_value":1,"status":"ok"}', answer.strip
    ensure
      Process.kill("TERM", pid)
      Process.wait(pid)
    end
  end
end
