# Tests/Formula/harness.rb: loads Formula/skan-mock.rb with a small stand-in for Homebrew's Formula DSL
# (this machine has no Homebrew), so that what Ruby evaluates can be checked, not only its syntax.
#
#   ruby harness.rb spec FORMULA           prints the formula's settings as JSON
#   ruby harness.rb install FORMULA DIR PREFIX
#                                          runs its `install` in DIR (an unpacked archive) into PREFIX,
#                                          then its `test do` block against what was installed
#
# Only the DSL the formula uses is stood in for; anything else it calls fails loudly (NoMethodError).
require "fileutils"
require "json"
require "pathname"
require "socket"

class Pathname
  # Homebrew's Pathname#install: moves files (or folders) into this folder.
  def install(*sources)
    mkpath
    sources.flatten.each { |source| FileUtils.mv(source.to_s, (self / File.basename(source.to_s)).to_s) }
  end
end

class Formula
  class Spec
    attr_reader :values

    def initialize
      @values = { "depends_on" => [] }
    end

    def url(value, **options) = (@values["url"] = value; @values["url_options"] = options.transform_keys(&:to_s))
    def depends_on(dependency) = @values["depends_on"] << dependency.inspect
  end

  class << self
    def spec = (@spec ||= { "depends_on" => [], "head" => nil })
    def desc(value) = spec["desc"] = value
    def homepage(value) = spec["homepage"] = value
    def url(value, **options) = spec["url"] = value
    def version(value) = spec["version"] = value
    def sha256(value) = spec["sha256"] = value
    def license(value) = spec["license"] = value
    def depends_on(dependency) = spec["depends_on"] << dependency.inspect

    def head(value = nil, **options, &block)
      head_spec = Spec.new
      head_spec.url(value, **options) if value
      head_spec.instance_eval(&block) if block
      spec["head"] = head_spec.values
    end

    def test(&block) = @test_block = block
    attr_reader :test_block
  end

  Build = Struct.new(:head) do
    def head? = head
  end

  def initialize(prefix)
    @prefix = Pathname(prefix)
  end

  def bin = @prefix / "bin"
  def pkgshare = @prefix / "share" / "skan-mock"
  def opt_pkgshare = pkgshare
  def build = Build.new(false)
  def version = self.class.spec["version"]

  def system(*args)
    Kernel.system(*args.map(&:to_s)) || raise("system #{args.join(" ")} failed: #{$?}")
  end

  def quiet_system(*args) = Kernel.system(*args.map(&:to_s), out: File::NULL, err: File::NULL)

  def shell_output(command, status = 0)
    output = `#{command}`
    raise "#{command} exited #{$?.exitstatus}, not #{status}" unless $?.exitstatus == status

    output
  end

  def free_port
    server = TCPServer.new("127.0.0.1", 0)
    server.addr[1]
  ensure
    server&.close
  end

  def assert_match(pattern, text) = (pattern === text) || raise("#{pattern.inspect} does not match #{text.inspect}")
  def assert_equal(expected, actual) = (expected == actual) || raise("expected #{expected.inspect}, got #{actual.inspect}")
end

mode, path, *rest = ARGV
load path
formula_class = Object.const_get("SkanMock")
case mode
when "spec"
  puts JSON.generate(formula_class.spec)
when "install"
  dir, prefix = rest
  formula = formula_class.new(prefix)
  Dir.chdir(dir) { formula.install }
  formula.instance_eval(&formula_class.test_block)
  puts "installed into #{prefix} and passed its test block"
else
  abort "usage: harness.rb spec FORMULA | install FORMULA DIR PREFIX"
end
